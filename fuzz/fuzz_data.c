/*
 * fuzz_data.c: libFuzzer harness of the data readers of the setup library:
 * the input written to a temporary file and read as a Matrix Market matrix
 * (fe_read_mtx) and as a node table (fe_read_nodes). Findings go to
 * tests/fuzz-regressions/data/, replayed by make test (fuzz/replay.c).
 */
#define _DEFAULT_SOURCE /* mkstemp */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jnt/setup.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One input: 0. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0]) {
        snprintf(path, sizeof path, "/tmp/jnt-fuzz-data-%ld.txt", (long)getpid());
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    char err[256];
    fe_sparse a;
    if (fe_read_mtx(path, &a, err, sizeof err) == 0)
        fe_sparse_free(&a);
    fe_model m;
    memset(&m, 0, sizeof m);
    fe_read_nodes(path, &m, err, sizeof err);
    fe_free(&m);
    return 0;
}
