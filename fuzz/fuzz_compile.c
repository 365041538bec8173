/*
 * fuzz_compile.c: libFuzzer harness of the front end: a model from a string
 * through the lexer, parser, sema, the derivatives pass and C generation
 * (compile_translate_string; no C compiler). Diagnostics go to a null
 * stream. Any crash, sanitizer report, leak or timeout is a finding (make
 * fuzz, docs/testing.md); found inputs go to tests/fuzz-regressions/compile/,
 * replayed by make test (fuzz/replay.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit/compile.h"
#include "jnt/jnt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One input: 0 (libFuzzer's convention; findings are crashes, not returns). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16) /* the front end's limits are tested elsewhere */
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    static FILE *null;
    if (!null)
        null = fopen("/dev/null", "w");
    jnt_compile_opts o = {.diag = null, .max_errors = 20};
    char *csrc;
    double *d;
    long nd;
    if (compile_translate_string("fuzz.jnt", text, &o, &csrc, &d, &nd) == JNT_OK) {
        free(csrc);
        free(d);
    }
    free(text);
    return 0;
}
