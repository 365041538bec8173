/*
 * vtk_xml.h: VTK's XML files with their arrays appended raw (internal; the
 * writers of runtime/io/vtk.c and vtk_modes.c): a data set's header, its
 * arrays' declarations with their offsets, then the arrays themselves
 * (little-endian, UInt64 byte counts).
 */
#ifndef JNT_VTK_XML_H
#define JNT_VTK_XML_H

#include <stdint.h>
#include <stdio.h>

/* An array appended after the XML. */
typedef struct vtk_arr {
    const void *p;
    uint64_t bytes;
} vtk_arr;

#define VTK_MAX_ARR 1024 /* a basis file has one array per column */

/* One file being written: its stream and the arrays to append. */
typedef struct vtk_file {
    FILE *f;
    vtk_arr a[VTK_MAX_ARR];
    int n;
    uint64_t off;
} vtk_file;

/* Declare an array of the data set (its offset) and keep it for the end. */
static inline void vtkx_arr(vtk_file *vf, const char *type, const char *name, int ncomp,
                            const void *p, uint64_t bytes)
{
    fprintf(vf->f, "<DataArray type=\"%s\"%s%s%s NumberOfComponents=\"%d\" format=\"appended\" "
                   "offset=\"%llu\"/>\n",
            type, name ? " Name=\"" : "", name ? name : "", name ? "\"" : "", ncomp,
            (unsigned long long)vf->off);
    if (vf->n < VTK_MAX_ARR)
        vf->a[vf->n++] = (vtk_arr){p, bytes};
    vf->off += 8 + bytes;
}

/* A field-data array of n tuples (VTK wants their count). */
static inline void vtkx_field(vtk_file *vf, const char *name, int ncomp, const double *p, int n)
{
    fprintf(vf->f, "<DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\" "
                   "NumberOfTuples=\"%d\" format=\"appended\" offset=\"%llu\"/>\n",
            name, ncomp, n, (unsigned long long)vf->off);
    if (vf->n < VTK_MAX_ARR)
        vf->a[vf->n++] = (vtk_arr){p, 8 * (uint64_t)ncomp * n};
    vf->off += 8 + 8 * (uint64_t)ncomp * n;
}

/* The file's header and the data set's opening tag. */
static inline void vtkx_head(vtk_file *vf, const char *type)
{
    fprintf(vf->f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"%s\" version=\"1.0\" "
                   "byte_order=\"LittleEndian\" header_type=\"UInt64\">\n<%s>\n",
            type, type);
    vf->n = 0, vf->off = 0;
}

/* Close the data set, append the arrays. */
static inline void vtkx_tail(vtk_file *vf, const char *type)
{
    fprintf(vf->f, "</Piece>\n</%s>\n<AppendedData encoding=\"raw\">\n_", type);
    for (int i = 0; i < vf->n; i++) {
        fwrite(&vf->a[i].bytes, 8, 1, vf->f);
        fwrite(vf->a[i].p, 1, (size_t)vf->a[i].bytes, vf->f);
    }
    fprintf(vf->f, "\n</AppendedData>\n</VTKFile>\n");
}

#endif
