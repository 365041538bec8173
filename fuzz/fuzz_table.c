/*
 * fuzz_table.c: libFuzzer harness of the table reader of jnt sweep --resume
 * (sweep_parse_table, compiler/cli/sweep_table.c) against a fixed sweep:
 * parameters a (3 values) and b (2 values), results x and y, fixed k = 1.
 * The input's first byte says what goes before the rest: bit 0 the sweep's
 * header line, bit 1 its comment line (so that the rows are reached); the
 * rest is the table's text. Checks: a whole-line length within the text,
 * and on success as many runs marked done as counted.
 * Findings go to tests/fuzz-regressions/table/, replayed by make test
 * (fuzz/replay.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One input: 0 (abort when a promise is broken). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char *names[] = {"a", "b"};
    static const char *res[] = {"x", "y"};
    static double val[] = {1, 10, 1, 20, 2, 10, 2, 20, 3.5, 10, 3.5, 20};
    static char *meta;
    if (!meta)
        meta = sweep_meta(0x0123456789abcdefULL, "k=1", NULL);
    if (size < 1 || size > (1 << 20))
        return 0;
    sweep_plan pl = {.npar = 2, .names = names, .val = val, .nrun = 6};
    sweep_opts o = {.table = "fuzz.csv", .meta = meta};
    unsigned char done[6] = {0};
    sweep_ctx c = {.o = &o, .plan = &pl, .nres = 2, .res_names = res, .done = done};
    char *header = sweep_header(&c);
    size_t hl = data[0] & 1 ? strlen(header) : 0, ml = data[0] & 2 ? strlen(meta) : 0;
    size_t n = hl + ml + size - 1;
    char *s = malloc(n + 1);
    memcpy(s, header, hl);
    memcpy(s + hl, meta, ml);
    memcpy(s + hl + ml, data + 1, size - 1);
    s[n] = 0;
    char err[1024] = "";
    size_t keep = 0;
    int rc = sweep_parse_table(&c, s, n, &keep, err, sizeof err);
    long marked = 0;
    for (int i = 0; i < 6; i++)
        marked += done[i];
    if (rc == 0 && (keep > n || (keep > 0 && s[keep - 1] != '\n') || marked != c.ndone_before ||
                    c.nfailed_before > c.ndone_before))
        abort();
    if (rc != 0 && !err[0])
        abort();
    free(s);
    free(header);
    return 0;
}
