# A hand-made VTK time collection in the layout of `jnt run --vtk`
# (docs/seeing.md): DIR/demo.pvd referencing DIR/demo_NNNNNN.vtm, each a
# vtkMultiBlockDataSet with the blocks "bodies" (a crank and a rod as lines),
# "joints" (points), "contacts" (points with force and state) and
# "mesh_sheet" (a deforming quadrilateral mesh with displacement). Written
# with VTK's own writers, for tests/cli/animate.sh.
#   /usr/bin/python3 animate_fixture.py DIR NFRAMES
import math
import os
import sys

import vtk

out, n = sys.argv[1], int(sys.argv[2])
os.makedirs(out, exist_ok=True)


def polydata(pts, lines=(), arrays=()):
    p = vtk.vtkPoints()
    for x in pts:
        p.InsertNextPoint(*x)
    d = vtk.vtkPolyData()
    d.SetPoints(p)
    if lines:
        c = vtk.vtkCellArray()
        for a, b in lines:
            c.InsertNextCell(2)
            c.InsertCellPoint(a)
            c.InsertCellPoint(b)
        d.SetLines(c)
    for name, ncomp, vals in arrays:
        a = vtk.vtkDoubleArray()
        a.SetName(name)
        a.SetNumberOfComponents(ncomp)
        for v in vals:
            a.InsertNextTuple(v if ncomp > 1 else (v,))
        d.GetPointData().AddArray(a)
    return d


def sheet(t):
    nx, ny = 6, 3
    p = vtk.vtkPoints()
    u = vtk.vtkDoubleArray()
    u.SetName("displacement")
    u.SetNumberOfComponents(3)
    for j in range(ny):
        for i in range(nx):
            x, y = 0.5 + 0.1 * i, -0.3 + 0.05 * j
            w = 0.02 * math.sin(2 * math.pi * t) * (i / (nx - 1)) ** 2
            p.InsertNextPoint(x, y + w, 0)
            u.InsertNextTuple((0, w, 0))
    g = vtk.vtkUnstructuredGrid()
    g.SetPoints(p)
    for j in range(ny - 1):
        for i in range(nx - 1):
            q = vtk.vtkQuad()
            for k, (a, b) in enumerate([(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]):
                q.GetPointIds().SetId(k, b * nx + a)
            g.InsertNextCell(q.GetCellType(), q.GetPointIds())
    g.GetPointData().AddArray(u)
    return g


lines = []
for k in range(n):
    t = k / max(n - 1, 1)
    ph = 2 * math.pi * t
    a = (0.1 * math.cos(ph), 0.1 * math.sin(ph), 0)
    s = a[0] + math.sqrt(0.3 ** 2 - a[1] ** 2)
    mb = vtk.vtkMultiBlockDataSet()
    blocks = [
        ("bodies", polydata([(0, 0, 0), a, (s, 0, 0)], [(0, 1), (1, 2)])),
        ("joints", polydata([(0, 0, 0), a, (s, 0, 0)])),
        ("contacts", polydata([(0.5 + 0.1 * i, -0.32, 0) for i in range(6)], (),
                              [("force", 3, [(0, 1.0 + i, 0) for i in range(6)]),
                               ("state", 1, [(i + k) % 3 for i in range(6)])])),
        ("mesh_sheet", sheet(t)),
    ]
    mb.SetNumberOfBlocks(len(blocks))
    for i, (name, d) in enumerate(blocks):
        mb.SetBlock(i, d)
        mb.GetMetaData(i).Set(vtk.vtkCompositeDataSet.NAME(), name)
    w = vtk.vtkXMLMultiBlockDataWriter()
    f = "demo_%06d.vtm" % k
    w.SetFileName(os.path.join(out, f))
    w.SetInputData(mb)
    w.Write()
    lines.append('    <DataSet timestep="%.17g" file="%s"/>' % (0.01 * k, f))
with open(os.path.join(out, "demo.pvd"), "w") as fh:
    fh.write('<?xml version="1.0"?>\n<VTKFile type="Collection" version="1.0">\n  <Collection>\n'
             + "\n".join(lines) + "\n  </Collection>\n</VTKFile>\n")
