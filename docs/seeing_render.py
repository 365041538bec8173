"""docs/seeing_render.py: one frame of a jnt run --vtk collection as a PNG.
(VTK's renderer: contacts coloured by state, open grey, stick blue, slip red.)
python3 seeing_render.py FRAMES.pvd OUT.png TIME [WIDTH HEIGHT]   (or pvpython ...)
Each block in its own colour (bodies, meshes, contacts, joints), lines as
tubes and points as spheres, the camera on the x-y plane. Under pvpython
(ParaView's python3-paraview) ParaView draws it from the .pvd; under
/usr/bin/python3, VTK's own renderer draws the frame nearest TIME, read by
vtkXMLMultiBlockDataReader. Needs an X display (make docs: xvfb-run)."""
import os
import sys
import xml.etree.ElementTree as ET

COLOURS = {"bodies": (0.10, 0.30, 0.70), "contacts": (0.80, 0.10, 0.10),
           "joints": (0.85, 0.45, 0.10)}
MESH = (0.20, 0.60, 0.20)


def by_paraview(pvd, png, t, w, h):
    from paraview.simple import (CreateView, PVDReader, Render, SaveScreenshot, Show,
                                 ColorBy, GetColorTransferFunction)
    src = PVDReader(FileName=pvd)
    src.UpdatePipelineInformation()
    view = CreateView("RenderView")
    view.ViewSize = [w, h]
    try:
        view.UseColorPaletteForBackground = 0
    except AttributeError:
        pass
    view.Background = [1, 1, 1]
    view.OrientationAxesVisibility = 0
    view.ViewTime = t
    d = Show(src, view)
    d.SetRepresentationType("Surface With Edges")
    d.LineWidth = 4
    d.PointSize = 12
    d.RenderPointsAsSpheres = 1
    d.RenderLinesAsTubes = 1
    ColorBy(d, ("FIELD", "vtkBlockColors"))
    lut = GetColorTransferFunction("vtkBlockColors")
    lut.IndexedColors = [c for k in ("bodies", "joints", "contacts") for c in COLOURS[k]]
    d.SetScalarBarVisibility(view, False)
    view.CameraPosition = [0, 0, 1]
    view.CameraFocalPoint = [0, 0, 0]
    view.CameraViewUp = [0, 1, 0]
    view.ResetCamera()
    Render(view)
    SaveScreenshot(png, view, ImageResolution=[w, h])


def by_vtk(pvd, png, t, w, h):
    import vtk
    sets = [(float(e.get("timestep")), e.get("file"))
            for e in ET.parse(pvd).getroot().iter("DataSet")]
    _, f = min(sets, key=lambda s: abs(s[0] - t))
    r = vtk.vtkXMLMultiBlockDataReader()
    r.SetFileName(os.path.join(os.path.dirname(pvd), f))
    r.Update()
    mb = r.GetOutput()
    ren = vtk.vtkRenderer()
    ren.SetBackground(1, 1, 1)
    for i in range(mb.GetNumberOfBlocks()):
        name = mb.GetMetaData(i).Get(vtk.vtkCompositeDataSet.NAME())
        geo = vtk.vtkGeometryFilter()
        geo.SetInputData(mb.GetBlock(i))
        m = vtk.vtkPolyDataMapper()
        m.SetInputConnection(geo.GetOutputPort())
        m.ScalarVisibilityOff()
        a = vtk.vtkActor()
        a.SetMapper(m)
        p = a.GetProperty()
        p.SetColor(*COLOURS.get(name, MESH))
        p.SetLineWidth(4)
        p.SetPointSize(12)
        if name == "contacts":  # by state: open grey, stick blue, slip red
            lut = vtk.vtkLookupTable()
            lut.SetNumberOfTableValues(3)
            for k, c in enumerate(((0.6, 0.6, 0.6), (0.1, 0.3, 0.9), (0.9, 0.1, 0.1))):
                lut.SetTableValue(k, *c, 1.0)
            lut.SetRange(0, 2)
            m.SetLookupTable(lut)
            m.SetScalarRange(0, 2)
            m.SetScalarModeToUsePointFieldData()
            m.SelectColorArray("state")
            m.ScalarVisibilityOn()
            p.SetPointSize(5)
        p.RenderPointsAsSpheresOn()
        p.RenderLinesAsTubesOn()
        if name.startswith("mesh_"):
            p.EdgeVisibilityOn()
            p.SetEdgeColor(0.1, 0.25, 0.1)
        ren.AddActor(a)
    win = vtk.vtkRenderWindow()
    win.SetOffScreenRendering(1)
    win.AddRenderer(ren)
    win.SetSize(w, h)
    cam = ren.GetActiveCamera()
    cam.SetPosition(0, 0, 1)
    cam.SetFocalPoint(0, 0, 0)
    cam.SetViewUp(0, 1, 0)
    ren.ResetCamera()
    win.Render()
    grab = vtk.vtkWindowToImageFilter()
    grab.SetInput(win)
    grab.Update()
    out = vtk.vtkPNGWriter()
    out.SetFileName(png)
    out.SetInputConnection(grab.GetOutputPort())
    out.Write()


if __name__ == "__main__":
    pvd, png, t = sys.argv[1], sys.argv[2], float(sys.argv[3])
    w, h = (int(sys.argv[4]), int(sys.argv[5])) if len(sys.argv) > 5 else (800, 400)
    try:
        import paraview.simple  # noqa: F401
        by_paraview(pvd, png, t, w, h)
    except ImportError:
        by_vtk(pvd, png, t, w, h)
