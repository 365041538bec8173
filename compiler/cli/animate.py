# animate.py: the frames of `jnt animate` (compiler/cli/animate.c), rendered
# with VTK off screen and joined by ffmpeg. Assembled into the jnt program
# (animate.c, .incbin) and run as
#   python3 -c SCRIPT PVD OUT FORMAT VIEW FPS FRAMES WIDTH HEIGHT FRAMEDIR FFMPEG TITLE
# with every name an argument, never code. PVD is a VTK time collection of
# vtkMultiBlockDataSet files (docs/seeing.md): the blocks "bodies", "joints",
# "contacts" and "mesh_<name>" are drawn each in its own way, any other block
# as a grey surface. OUT is written by ffmpeg as FORMAT (mp4: H.264; gif: a
# 64-colour palette of the whole film). Exit status 0, or 1 after a message
# on stderr starting "jnt animate: error: ".
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    sys.stderr.write("jnt animate: error: %s\n" % msg)
    sys.exit(1)


try:
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
except ImportError as e:
    fail("jnt animate needs VTK for Python (Debian package python3-vtk9): %s" % e)

(pvd, out, fmt, view, fps, nframes, width, height, framedir, ffmpeg, title) = sys.argv[1:12]
fps, nframes, width, height = int(fps), int(nframes), int(width), int(height)

# the collection: (time, file) in time order, files relative to the .pvd
try:
    root = ET.parse(pvd).getroot()
except (ET.ParseError, OSError) as e:
    fail("cannot read '%s' as a VTK collection (.pvd): %s" % (pvd, e))
base = os.path.dirname(os.path.abspath(pvd))
steps = []
for ds in root.iter("DataSet"):
    f = ds.get("file")
    if f is None:
        continue
    try:
        t = float(ds.get("timestep", "0"))
    except ValueError:
        fail("'%s': a timestep that is not a number: '%s'" % (pvd, ds.get("timestep")))
    steps.append((t, f if os.path.isabs(f) else os.path.join(base, f)))
steps.sort(key=lambda s: s[0])
if not steps:
    fail("'%s' lists no frames (no DataSet with a file)" % pvd)
# at most nframes of them, evenly spread, the first and the last included
if 0 < nframes < len(steps):
    idx = sorted({round(i * (len(steps) - 1) / (nframes - 1)) for i in range(nframes)}) \
        if nframes > 1 else [0]
    steps = [steps[i] for i in idx]


def leaves(obj, name, out):
    """The datasets of obj with their block names (a nested block: its own)."""
    if obj is None:
        return
    if obj.IsA("vtkMultiBlockDataSet"):
        for i in range(obj.GetNumberOfBlocks()):
            md = obj.GetMetaData(i) if obj.HasMetaData(i) else None
            nm = md.Get(vtk.vtkCompositeDataSet.NAME()) if md is not None else None
            leaves(obj.GetBlock(i), nm or name, out)
    elif obj.IsA("vtkDataSet") and obj.GetNumberOfPoints() > 0:
        out.append((name or "", obj))


def read(path):
    if not os.path.isfile(path):
        fail("'%s' names a frame '%s' that is not there" % (pvd, path))
    r = vtk.vtkXMLGenericDataObjectReader()
    r.SetFileName(path)
    r.Update()
    o = r.GetOutput()
    if o is None:
        fail("cannot read the frame '%s'" % path)
    got = []
    leaves(o, "", got)
    kept = []  # the reader's output is reused: keep copies
    for nm, d in got:
        c = d.NewInstance()
        c.DeepCopy(d)
        kept.append((nm, c))
    return kept


frames = [(t, read(f)) for t, f in steps]

# the scene's extent over the whole film, and the colour ranges
bounds = [1e300, -1e300] * 3
dmax = 0.0
for _, blocks in frames:
    for nm, d in blocks:
        b = d.GetBounds()
        for k in range(3):
            bounds[2 * k] = min(bounds[2 * k], b[2 * k])
            bounds[2 * k + 1] = max(bounds[2 * k + 1], b[2 * k + 1])
        a = d.GetPointData().GetArray("displacement")
        if nm.startswith("mesh_") and a is not None and a.GetNumberOfComponents() == 3:
            u = vtk_to_numpy(a)
            dmax = max(dmax, float((u * u).sum(axis=1).max() ** 0.5))
diag = sum((bounds[2 * k + 1] - bounds[2 * k]) ** 2 for k in range(3)) ** 0.5 or 1.0

STEEL, JOINT, GREY = (0.27, 0.45, 0.70), (0.85, 0.33, 0.10), (0.6, 0.6, 0.6)
# contact states (docs/seeing.md): 0 open, 1 stick, 2 slip
STATE = vtk.vtkLookupTable()
STATE.SetNumberOfTableValues(3)
STATE.SetTableRange(0, 2)
for i, c in enumerate([(0.65, 0.65, 0.65, 0.2), (0.10, 0.45, 0.85, 1), (0.85, 0.15, 0.10, 1)]):
    STATE.SetTableValue(i, *c)  # open contacts faint: the mesh under them shows
STATE.Build()
DISP = vtk.vtkLookupTable()
DISP.SetHueRange(0.667, 0.0)
DISP.SetTableRange(0, dmax if dmax > 0 else 1)
DISP.Build()


KEEP = []  # the filters of the frame being drawn


def as_points(d):
    """d's points as vertices (a dataset of points only draws nothing)."""
    g = vtk.vtkVertexGlyphFilter()
    g.SetInputData(d)
    return g


def actor_of(nm, d):
    """An actor for block nm (its dataset d) in the block's style."""
    m = vtk.vtkDataSetMapper()
    a = vtk.vtkActor()
    p = a.GetProperty()
    ncell = d.GetNumberOfCells()
    if nm in ("contacts", "joints") or ncell == 0:
        # points drawn as balls of a few pixels, whatever the scene's size
        st = d.GetPointData().GetArray("state")
        if nm == "contacts" and st is not None:
            d.GetPointData().SetActiveScalars("state")
            m.SetLookupTable(STATE)
            m.SetScalarRange(0, 2)
            m.SetScalarModeToUsePointData()
            m.ScalarVisibilityOn()
        else:
            m.ScalarVisibilityOff()
            p.SetColor(*(JOINT if nm == "joints" else (0.2, 0.2, 0.2)))
        g = as_points(d)
        KEEP.append(g)  # the mapper's connection does not keep its filter alive
        m.SetInputConnection(g.GetOutputPort())
        p.SetPointSize(max(3, height // 120) if nm == "contacts" else max(6, height // 50))
        p.RenderPointsAsSpheresOn()
    elif nm.startswith("mesh_"):
        m.SetInputData(d)
        u = d.GetPointData().GetArray("displacement")
        if u is not None and u.GetNumberOfComponents() == 3:
            mag = vtk.vtkDoubleArray()
            mag.SetName("u_norm")
            un = vtk_to_numpy(u)
            for v in ((un * un).sum(axis=1) ** 0.5):
                mag.InsertNextValue(float(v))
            d.GetPointData().AddArray(mag)
            d.GetPointData().SetActiveScalars("u_norm")
            m.SetLookupTable(DISP)
            m.SetScalarRange(0, dmax if dmax > 0 else 1)
            m.ScalarVisibilityOn()
        else:
            m.ScalarVisibilityOff()
            p.SetColor(*STEEL)
        if ncell <= 200:  # the cells' edges where they do not hide the colours
            p.EdgeVisibilityOn()
            p.SetEdgeColor(0.25, 0.25, 0.25)
        p.SetLineWidth(1.5)
    else:
        m.SetInputData(d)
        m.ScalarVisibilityOff()
        p.SetColor(*(STEEL if nm == "bodies" else JOINT if nm == "joints" else GREY))
        p.SetLineWidth(4 if nm in ("bodies", "joints") else 2)
        p.SetPointSize(8)
        p.RenderPointsAsSpheresOn()
    a.SetMapper(m)
    return a


ren = vtk.vtkRenderer()
ren.SetBackground(1, 1, 1)
win = vtk.vtkRenderWindow()
win.SetOffScreenRendering(1)
win.AddRenderer(ren)
win.SetSize(width, height)
text = vtk.vtkTextActor()
text.GetTextProperty().SetColor(0.1, 0.1, 0.1)
text.GetTextProperty().SetFontSize(max(12, height // 28))
text.SetPosition(10, 10)
ren.AddViewProp(text)
vw = 1.0  # the scene's share of the width (a colour bar takes the rest)
if dmax > 0:
    vw = 0.82
    ren.SetViewport(0, 0, vw, 1)
    side = vtk.vtkRenderer()
    side.SetViewport(vw, 0, 1, 1)
    side.SetBackground(1, 1, 1)
    win.AddRenderer(side)
    bar = vtk.vtkScalarBarActor()
    bar.SetLookupTable(DISP)
    bar.SetTitle("u [m]")
    bar.SetNumberOfLabels(3)
    bar.SetLabelFormat("%.2g")
    bar.UnconstrainedFontSizeOn()
    for tp in (bar.GetTitleTextProperty(), bar.GetLabelTextProperty()):
        tp.SetColor(0.1, 0.1, 0.1)
        tp.SetFontSize(max(10, height // 40))
        tp.ShadowOff()
        tp.ItalicOff()
    bar.SetPosition(0.1, 0.15)
    bar.SetWidth(0.45)
    bar.SetHeight(0.7)
    side.AddViewProp(bar)

# the camera: fixed over the film, looking along the view's normal
cam = ren.GetActiveCamera()
cx = [(bounds[2 * k] + bounds[2 * k + 1]) / 2 for k in range(3)]
look = {"xy": ((0, 0, 1), (0, 1, 0)), "xz": ((0, -1, 0), (0, 0, 1)),
        "yz": ((1, 0, 0), (0, 0, 1)), "iso": ((1, -1, 0.8), (0, 0, 1))}
if view not in look:
    fail("unknown view '%s'" % view)
n, up = look[view]
cam.SetFocalPoint(*cx)
cam.SetPosition(*(cx[k] + 4 * diag * n[k] for k in range(3)))
cam.SetViewUp(*up)
cam.ParallelProjectionOn()
ren.ResetCamera(bounds)
if view != "iso":  # the film's extent in the picture's plane, with a margin
    ax = {"xy": (0, 1), "xz": (0, 2), "yz": (1, 2)}[view]
    w = bounds[2 * ax[0] + 1] - bounds[2 * ax[0]]
    h = bounds[2 * ax[1] + 1] - bounds[2 * ax[1]]
    half = max(h / 2, w / 2 * height / (vw * width), 1e-6 * diag)
    cam.SetParallelScale(1.15 * half)
else:
    cam.SetParallelScale(cam.GetParallelScale() * 1.05)
ren.ResetCameraClippingRange(bounds)

grab = vtk.vtkWindowToImageFilter()
grab.SetInput(win)
grab.ReadFrontBufferOff()
png = vtk.vtkPNGWriter()
png.SetInputConnection(grab.GetOutputPort())
actors = []
for i, (t, blocks) in enumerate(frames):
    for a in actors:
        ren.RemoveActor(a)
    KEEP.clear()
    actors = [actor_of(nm, d) for nm, d in blocks]
    for a in actors:
        ren.AddActor(a)
    text.SetInput("%s   t = %.4g s" % (title, t))
    ren.ResetCameraClippingRange(bounds)
    win.Render()
    grab.Modified()
    png.SetFileName(os.path.join(framedir, "f_%06d.png" % i))
    png.Write()

# the film
inp = os.path.join(framedir, "f_%06d.png")
if fmt == "gif":
    args = [ffmpeg, "-nostdin", "-loglevel", "error", "-y", "-framerate", str(fps), "-i", inp,
            "-vf", "split[a][b];[a]palettegen=max_colors=64:stats_mode=diff[p];"
                   "[b][p]paletteuse=dither=bayer:bayer_scale=4", "-loop", "0", "-f", "gif", out]
else:
    args = [ffmpeg, "-nostdin", "-loglevel", "error", "-y", "-framerate", str(fps), "-i", inp,
            "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
            "-crf", "28", "-movflags", "+faststart", "-f", "mp4", out]
r = subprocess.run(args)
if r.returncode != 0:
    fail("ffmpeg failed (exit %d; its message is above)" % r.returncode)
sys.stderr.write("jnt animate: %d frames, t = %g to %g s, %d per second\n"
                 % (len(frames), frames[0][0], frames[-1][0], fps))
