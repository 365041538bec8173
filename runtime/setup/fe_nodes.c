/*
 * fe_nodes.c: the node table of a finite-element model as CSV (fe.h): a
 * header naming the columns, in any order: id, x, y, z (m; a missing one
 * is 0), ux, uy, uz, rx, ry, rz (0-based DOF indices or -1; a missing one
 * is -1), set (set names separated by ';'), and for points attached to a
 * node, master (that node's id) and ox, oy, oz (the offset, m).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe_priv.h"

enum { COL_ID, COL_X, COL_Y, COL_Z, COL_UX, COL_UY, COL_UZ, COL_RX, COL_RY, COL_RZ,
       COL_SET, COL_MASTER, COL_OX, COL_OY, COL_OZ, NCOL };

static const char *const col_name[NCOL] = {"id", "x",  "y",   "z",      "ux", "uy", "uz", "rx",
                                           "ry", "rz", "set", "master", "ox", "oy", "oz"};

/* Trim white space around s in place. */
static char *nodes_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Split line at ',' into at most max fields (trimmed); the count, or max + 1
 * when there are more. */
static int nodes_split(char *line, char **f, int max)
{
    int n = 0;
    for (char *s = line;; s++) {
        char *c = strchr(s, ',');
        if (n == max)
            return max + 1;
        if (c)
            *c = '\0';
        f[n++] = nodes_trim(s);
        if (!c)
            return n;
        s = c;
    }
}

/* A set name is an identifier of at most 63 characters. */
static int nodes_setname_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 63 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
            return 0;
    return 1;
}

/* The header line into where[col] (field index or -1). 0 or JNT_ERR_IO. */
static int nodes_header(char *line, const char *path, int where[NCOL], int *nfield, char *err,
                        size_t errn)
{
    char *f[NCOL + 1];
    int n = nodes_split(line, f, NCOL);
    if (n > NCOL)
        return jnt_errf(err, errn, JNT_ERR_IO, "%s:1: more than %d columns in the header", path,
                        NCOL);
    for (int c = 0; c < NCOL; c++)
        where[c] = -1;
    for (int k = 0; k < n; k++) {
        int c = 0;
        while (c < NCOL && strcmp(f[k], col_name[c]) != 0)
            c++;
        /* a first line that is no header at all: the file is not echoed */
        if (c == NCOL && (k == 0 || strlen(f[k]) > 12 || strspn(f[k], "abcdefghijklmnopqrstuvwxyz"
                                                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789") !=
                                                         strlen(f[k])))
            return jnt_errf(err, errn, JNT_ERR_IO,
                            "%s:1: not a node table: expected a header of column names (id, x, y, "
                            "z, ...) on its first line", path);
        if (c == NCOL)
            return jnt_errf(err, errn, JNT_ERR_IO,
                            "%s:1: unknown column '%s' (expected id, x, y, z, ux, uy, uz, rx, ry, "
                            "rz, set, master, ox, oy, oz)", path, f[k]);
        if (where[c] >= 0)
            return jnt_errf(err, errn, JNT_ERR_IO, "%s:1: column '%s' appears twice", path, f[k]);
        where[c] = k;
    }
    if (where[COL_ID] < 0)
        return jnt_errf(err, errn, JNT_ERR_IO, "%s:1: expected a header with an 'id' column",
                        path);
    *nfield = n;
    return JNT_OK;
}

/* An integer field; 0 or -1 when it is not one. */
static int nodes_int(const char *s, long *v)
{
    char *e;
    errno = 0;
    *v = strtol(s, &e, 10);
    return (e == s || *e || errno || *v < INT_MIN || *v > INT_MAX) ? -1 : 0;
}

/* One data line into node p (its set names are added to m). 0 or a status. */
static int nodes_line(fe_model *m, int idx, char *line, int lineno, const char *path,
                      const int where[NCOL], int nfield, int *master_id, char *err, size_t errn)
{
    char *f[NCOL + 1];
    fe_node *p = &m->node[idx];
    int n = nodes_split(line, f, nfield);
    if (n != nfield)
        return jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: expected %d fields, got %s%d", path, lineno,
                        nfield, n > nfield ? "more than " : "", n > nfield ? nfield : n);
    memset(p, 0, sizeof *p);
    p->master = -1;
    *master_id = INT_MIN;
    for (int c = 0; c < FE_NDOF_NODE; c++)
        p->dof[c] = -1;
    for (int c = 0; c < NCOL; c++) {
        if (where[c] < 0 || c == COL_SET)
            continue;
        const char *s = f[where[c]];
        long v;
        char *e;
        if (c == COL_ID || c == COL_MASTER || (c >= COL_UX && c <= COL_RZ)) {
            if (c == COL_MASTER && *s == '\0')
                continue;
            if (nodes_int(s, &v) != 0)
                return jnt_errf(err, errn, JNT_ERR_IO,
                                "%s:%d: expected an integer in column '%s', got '%s'", path,
                                lineno, col_name[c], s);
            if (c == COL_ID)
                p->id = (int)v;
            else if (c == COL_MASTER)
                *master_id = (int)v;
            else if (v < -1)
                return jnt_errf(err, errn, JNT_ERR_IO,
                                "%s:%d: DOF index %ld in column '%s' is neither -1 nor a 0-based "
                                "index", path, lineno, v, col_name[c]);
            else
                p->dof[c - COL_UX] = (int)v;
        } else {
            double x = strtod(s, &e);
            if (e == s || *e || !isfinite(x)) /* "nan", "inf", 1e400 */
                return jnt_errf(err, errn, JNT_ERR_IO,
                                "%s:%d: expected a finite number in column '%s', got '%s'", path, lineno,
                                col_name[c], s);
            if (c >= COL_X && c <= COL_Z)
                p->x[c - COL_X] = x;
            else
                p->off[c - COL_OX] = x;
        }
    }
    if (where[COL_SET] < 0)
        return JNT_OK;
    /* set names separated by ';' */
    char *s = f[where[COL_SET]];
    while (*s) {
        char *semi = strchr(s, ';');
        if (semi)
            *semi = '\0';
        char *name = nodes_trim(s);
        if (*name) {
            if (!nodes_setname_ok(name))
                return jnt_errf(err, errn, JNT_ERR_IO,
                                "%s:%d: set name '%s' is not an identifier of at most 63 "
                                "characters", path, lineno, name);
            int k = fe_set_get(m, name);
            if (k < 0 || fe_set_push(&m->set[k], idx) != JNT_OK)
                return jnt_errf(err, errn, JNT_ERR_NOMEM, "%s: out of memory", path);
        }
        if (!semi)
            break;
        s = semi + 1;
    }
    return JNT_OK;
}

/* qsort order of longs. */
static int nodes_cmp(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Resolve the master ids to node indices; check ids are unique. The ids are
 * looked up through a sorted copy (n log n). */
static int nodes_resolve(fe_model *m, const int *master_id, const int *lineof, const char *path,
                         char *err, size_t errn)
{
    int n = m->nnode;
    long long *key = malloc(((size_t)n + 1) * sizeof *key);
    if (!key)
        return jnt_errf(err, errn, JNT_ERR_NOMEM, "%s: out of memory", path);
    /* key = id * 2^31 + index: sorted by id, then index */
    for (int i = 0; i < n; i++)
        key[i] = (long long)m->node[i].id * 2147483648LL + i;
    qsort(key, (size_t)n, sizeof *key, nodes_cmp);
    int rc = JNT_OK;
    for (int i = 1; i < n && rc == JNT_OK; i++) {
        int a = (int)(key[i - 1] & 2147483647LL), b = (int)(key[i] & 2147483647LL);
        if (m->node[a].id == m->node[b].id)
            rc = jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: node id %d repeats line %d", path,
                          lineof[b], m->node[b].id, lineof[a]);
    }
    for (int i = 0; i < n && rc == JNT_OK; i++) {
        if (master_id[i] == INT_MIN)
            continue;
        int lo = 0, hi = n - 1, found = -1;
        while (lo <= hi) {
            int mid = lo + (hi - lo) / 2, k = (int)(key[mid] & 2147483647LL);
            if (m->node[k].id == master_id[i]) {
                found = k;
                break;
            }
            if (m->node[k].id < master_id[i])
                lo = mid + 1;
            else
                hi = mid - 1;
        }
        if (found < 0 || found == i)
            rc = jnt_errf(err, errn, JNT_ERR_IO, "%s:%d: master node %d is %s", path, lineof[i],
                          master_id[i], found < 0 ? "not in the table" : "the node itself");
        else
            m->node[i].master = found;
    }
    for (int i = 0; i < n && rc == JNT_OK; i++) {
        int q = m->node[i].master;
        if (q >= 0 && m->node[q].master >= 0)
            rc = jnt_errf(err, errn, JNT_ERR_IO,
                          "%s:%d: master node %d is itself attached to node %d", path, lineof[i],
                          m->node[q].id, m->node[m->node[q].master].id);
    }
    free(key);
    return rc;
}

/* Read a node table (see the top of this file and fe.h) into m->node and
 * m->set, replacing any there; m's matrices are left alone. Returns 0,
 * JNT_ERR_IO ("path:line: message") or JNT_ERR_NOMEM; on failure m has no
 * nodes and no sets. */
int fe_read_nodes(const char *path, fe_model *m, char *err, size_t errn)
{
    free(m->node);
    for (int s = 0; s < m->nset; s++)
        free(m->set[s].node);
    free(m->set);
    m->node = NULL, m->set = NULL, m->nnode = m->nset = 0;
    char why[96];
    FILE *f = setup_open_input(path, SETUP_MAX_DATA, why, sizeof why);
    if (!f)
        return jnt_errf(err, errn, JNT_ERR_IO, "cannot open '%s': %s", path, why);
    char *buf = NULL;
    size_t cap = 0;
    int lineno = 0, where[NCOL], nfield = 0, ncap = 0, rc = JNT_OK;
    int *master_id = NULL, *lineof = NULL;
    ssize_t len;
    while (rc == JNT_OK && (len = getline(&buf, &cap, f)) >= 0) {
        lineno++;
        char *line = nodes_trim(buf);
        if (lineno == 1) {
            rc = nodes_header(line, path, where, &nfield, err, errn);
            continue;
        }
        if (*line == '\0' || *line == '#')
            continue;
        if (m->nnode == ncap) {
            ncap = ncap ? 2 * ncap : 256;
            fe_node *nn = realloc(m->node, (size_t)ncap * sizeof *nn);
            if (nn)
                m->node = nn;
            int *a = realloc(master_id, (size_t)ncap * sizeof *a);
            if (a)
                master_id = a;
            int *b = realloc(lineof, (size_t)ncap * sizeof *b);
            if (b)
                lineof = b;
            if (!nn || !a || !b) {
                rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "%s: out of memory", path);
                break;
            }
        }
        lineof[m->nnode] = lineno;
        rc = nodes_line(m, m->nnode, line, lineno, path, where, nfield, &master_id[m->nnode], err,
                        errn);
        m->nnode++;
    }
    if (rc == JNT_OK && lineno == 0)
        rc = jnt_errf(err, errn, JNT_ERR_IO,
                      "%s:1: empty file, expected a header 'id,x,y,z,ux,uy,uz'", path);
    if (rc == JNT_OK && ferror(f))
        rc = jnt_errf(err, errn, JNT_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
    if (rc == JNT_OK)
        rc = nodes_resolve(m, master_id, lineof, path, err, errn);
    free(buf), free(master_id), free(lineof);
    fclose(f);
    if (rc != JNT_OK) {
        free(m->node);
        for (int s = 0; s < m->nset; s++)
            free(m->set[s].node);
        free(m->set);
        m->node = NULL, m->set = NULL, m->nnode = m->nset = 0;
    }
    return rc;
}

/* Write the node table of m: all columns (master and offsets only when a
 * node is attached to another), the sets of each node joined by ';'.
 * Returns 0 or JNT_ERR_IO / JNT_ERR_NOMEM. */
int fe_write_nodes(const char *path, const fe_model *m, char *err, size_t errn)
{
    int attached = 0;
    for (int i = 0; i < m->nnode; i++)
        attached |= m->node[i].master >= 0;
    /* the sets of each node: a list per node through one array, in set order */
    int total = 0;
    for (int s = 0; s < m->nset; s++)
        total += m->set[s].n;
    int *first = malloc(((size_t)m->nnode + 1) * sizeof *first);
    int *next = malloc(((size_t)total + 1) * sizeof *next);
    int *which = malloc(((size_t)total + 1) * sizeof *which);
    int *last = malloc(((size_t)m->nnode + 1) * sizeof *last);
    FILE *f = NULL;
    int rc = JNT_OK;
    if (!first || !next || !which || !last) {
        rc = jnt_errf(err, errn, JNT_ERR_NOMEM, "%s: out of memory", path);
        goto done;
    }
    for (int i = 0; i < m->nnode; i++)
        first[i] = last[i] = -1;
    int k = 0;
    for (int s = 0; s < m->nset; s++)
        for (int q = 0; q < m->set[s].n; q++, k++) {
            int i = m->set[s].node[q];
            which[k] = s, next[k] = -1;
            if (last[i] < 0)
                first[i] = k;
            else
                next[last[i]] = k;
            last[i] = k;
        }
    f = fopen(path, "w");
    if (!f) {
        rc = jnt_errf(err, errn, JNT_ERR_IO, "cannot open '%s' for writing: %s", path,
                      strerror(errno));
        goto done;
    }
    fprintf(f, "id,x,y,z,ux,uy,uz,rx,ry,rz,set%s\n", attached ? ",master,ox,oy,oz" : "");
    for (int i = 0; i < m->nnode; i++) {
        const fe_node *p = &m->node[i];
        fprintf(f, "%d,%.17g,%.17g,%.17g", p->id, p->x[0], p->x[1], p->x[2]);
        for (int c = 0; c < FE_NDOF_NODE; c++)
            fprintf(f, ",%d", p->dof[c]);
        fputc(',', f);
        for (int q = first[i]; q >= 0; q = next[q])
            fprintf(f, "%s%s", q == first[i] ? "" : ";", m->set[which[q]].name);
        if (attached && p->master >= 0)
            fprintf(f, ",%d,%.17g,%.17g,%.17g", m->node[p->master].id, p->off[0], p->off[1],
                    p->off[2]);
        else if (attached)
            fprintf(f, ",,0,0,0");
        fputc('\n', f);
    }
    int bad = ferror(f), saved = errno;
    if (fclose(f) != 0 && !bad)
        bad = 1, saved = errno;
    if (bad)
        rc = jnt_errf(err, errn, JNT_ERR_IO, "cannot write '%s': %s", path, strerror(saved));
done:
    free(first), free(next), free(which), free(last);
    return rc;
}
