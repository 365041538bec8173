/*
 * names.c: the one spelling suggester of jnt ("did you mean"), used by the
 * compiler's diagnostics and by the runtime's -D name=value.
 */
#include <ctype.h>
#include <string.h>

#include "jnt/jnt.h"

/*
 * Optimal-string-alignment (restricted Damerau-Levenshtein) distance of a and
 * b, comparing case-insensitively when fold is set. Two rolling rows plus the
 * one before them for transpositions; names are short (at most 64 characters
 * are compared), so quadratic is fine.
 */
static int edit_distance(const char *a, const char *b, int fold)
{
    size_t na = strlen(a), nb = strlen(b);
    if (na > 64 || nb > 64)
        return 1000;
    int row[3 * 65];
    int *pp = row, *p = row + nb + 1, *c = row + 2 * (nb + 1);
    for (size_t j = 0; j <= nb; j++)
        p[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        c[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int ca = (unsigned char)a[i - 1], cb = (unsigned char)b[j - 1];
            if (fold) {
                ca = tolower(ca);
                cb = tolower(cb);
            }
            int best = p[j - 1] + (ca != cb);
            if (p[j] + 1 < best)
                best = p[j] + 1;
            if (c[j - 1] + 1 < best)
                best = c[j - 1] + 1;
            if (i > 1 && j > 1) {
                int pa = (unsigned char)a[i - 2], pb = (unsigned char)b[j - 2];
                if (fold) {
                    pa = tolower(pa);
                    pb = tolower(pb);
                }
                if (ca == pb && pa == cb && pp[j - 2] + 1 < best)
                    best = pp[j - 2] + 1;
            }
            c[j] = best;
        }
        int *t = pp;
        pp = p;
        p = c;
        c = t;
    }
    return p[nb];
}

/* See jnt.h. */
const char *jnt_closest_name(const char *name, const char *const *cands, int n)
{
    if (!name || !cands)
        return NULL;
    int limit = (int)strlen(name) / 3;
    if (limit < 1)
        limit = 1;
    const char *best = NULL;
    int bestd = 0, bestexact = 0;
    for (int i = 0; i < n; i++) {
        if (!cands[i])
            continue;
        int d = edit_distance(name, cands[i], 1);
        if (d > limit)
            continue;
        int e = edit_distance(name, cands[i], 0);
        if (!best || d < bestd || (d == bestd && e < bestexact)) {
            best = cands[i];
            bestd = d;
            bestexact = e;
        }
    }
    return best;
}
