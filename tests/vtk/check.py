"""tests/vtk/check.py: jnt run --vtk's files read back with VTK's own readers
(VTK's Python modules, python3-paraview), checked against the FE meshes, the CSV rows and each other.
Run by tests/vtk/vtk.sh in its scratch folder: python3 check.py KIND ARGS...
Prints PASS:/FAIL: lines."""
import glob
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np
import scipy.io
import vtk
from vtk.util.numpy_support import vtk_to_numpy as v2n


def ok(cond, what):
    print(("PASS: " if cond else "FAIL: ") + what)
    return cond


def frames(d):
    """The .pvd's (time, .vtm path) list, in order."""
    pvd = glob.glob(os.path.join(d, "*.pvd"))
    if len(pvd) != 1:
        return []
    root = ET.parse(pvd[0]).getroot()
    return [(float(e.get("timestep")), os.path.join(d, e.get("file")))
            for e in root.iter("DataSet")]


def blocks(vtm):
    """{name: data set} of a .vtm through vtkXMLMultiBlockDataReader."""
    r = vtk.vtkXMLMultiBlockDataReader()
    r.SetFileName(vtm)
    r.Update()
    mb = r.GetOutput()
    out = {}
    for i in range(mb.GetNumberOfBlocks()):
        out[mb.GetMetaData(i).Get(vtk.vtkCompositeDataSet.NAME())] = mb.GetBlock(i)
    return out


def read_vtu(path):
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    return r.GetOutput()


def pts(ds):
    return v2n(ds.GetPoints().GetData())


def arr(ds, name):
    return v2n(ds.GetPointData().GetArray(name))


def cells(ds):
    """The cells as a list of node tuples."""
    out = []
    for c in range(ds.GetNumberOfCells()):
        ids = ds.GetCell(c).GetPointIds()
        out.append(tuple(ids.GetId(k) for k in range(ids.GetNumberOfIds())))
    return out


def csv(path):
    """Header names and rows (the '#' lines skipped)."""
    with open(path) as f:
        names = f.readline().strip().split(",")
        rows = [list(map(float, l.split(","))) for l in f if l.strip() and l[0] != "#"]
    return names, np.array(rows)


def every(d, csvpath, stem):
    """Every frame reads, one per CSV row, at the row's time, with its blocks."""
    fr = frames(d)
    names, rows = csv(csvpath)
    good = ok(len(fr) == len(rows) and len(fr) > 0,
              "%s: %d frames in the .pvd for %d CSV rows" % (stem, len(fr), len(rows)))
    if good:
        good = ok(np.allclose([t for t, _ in fr], rows[:, 0], rtol=0, atol=1e-15),
                  "%s: the frames' times are the CSV's" % stem)
    nonempty = True
    for t, f in fr:
        b = blocks(f)
        if not b or any(ds is None or ds.GetNumberOfPoints() == 0 for ds in b.values()):
            nonempty = False
    ok(nonempty, "%s: every .vtm reads with its blocks non-empty (%s)" %
       (stem, " ".join(sorted(blocks(fr[-1][1]))) if fr else "-"))
    return fr


def fe_pairs(mtx_paths, nodes_csv):
    """Nodes (count) and the node pairs the matrices couple, from the files."""
    with open(nodes_csv) as f:
        head = f.readline().strip().split(",")
        rows = [l.strip().split(",") for l in f if l.strip()]
    col = {n: i for i, n in enumerate(head)}
    dof_node = {}
    for i, r in enumerate(rows):
        for c in ("ux", "uy", "uz", "rx", "ry", "rz"):
            if c in col and int(r[col[c]]) >= 0:
                dof_node[int(r[col[c]])] = i
    pairs = set()
    for p in mtx_paths:
        a = scipy.io.mmread(p).tocoo()
        for i, j, v in zip(a.row, a.col, a.data):
            ni, nj = dof_node.get(int(i)), dof_node.get(int(j))
            if v != 0 and ni is not None and nj is not None and ni != nj:
                pairs.add((min(ni, nj), max(ni, nj)))
    return len(rows), pairs


def mesh_vs_fe(stem, d, block, mtx, nodes, ncell, pins):
    """A mesh block: its node count is the node table's, every cell's nodes
    are coupled pairwise in the FE matrices and every coupled pair lies in a
    cell (the cells are the elements), but for the pins between the sheets,
    at x in pins (one coupled pair each, not an element)."""
    fr = frames(d)
    ds = blocks(fr[-1][1])[block]
    n, pairs = fe_pairs(mtx, nodes)
    ok(ds.GetNumberOfPoints() == n, "%s: %s has the node table's %d nodes (%d)" %
       (stem, block, n, ds.GetNumberOfPoints()))
    cl = cells(ds)
    inner = set()
    for c in cl:
        for a in range(len(c)):
            for b in range(a + 1, len(c)):
                inner.add((min(c[a], c[b]), max(c[a], c[b])))
    ok(len(cl) == ncell, "%s: %s has %d cells (want %d)" % (stem, block, len(cl), ncell))
    ok(inner <= pairs, "%s: every cell's nodes are coupled in the FE matrices" % stem)
    x = pts(ds)
    out = sorted(pairs - inner)
    xs = sorted(round(float(x[i][0]), 9) for i, j in out)
    ok(len(xs) == len(pins) and np.allclose(xs, sorted(pins), rtol=0, atol=1e-6) and all(abs(x[i][0] - x[j][0]) < 1e-6 for i, j in out),
       "%s: every coupled pair of nodes lies in a cell but the %d pins (at x = %s m)" %
       (stem, len(pins), xs))


def generated(stem, d, block, nnode, ncell, nen):
    fr = frames(d)
    ds = blocks(fr[-1][1])[block]
    cl = cells(ds)
    ok(ds.GetNumberOfPoints() == nnode and len(cl) == ncell and all(len(c) == nen for c in cl),
       "%s: %s has %d nodes and %d cells of %d nodes (%d, %d)" %
       (stem, block, nnode, ncell, nen, ds.GetNumberOfPoints(), len(cl)))
    # a quadrilateral's corners in order: its area is the product of its sides
    if nen == 4:
        x = pts(ds)
        good = True
        for c in cl:
            p = x[list(c)][:, :2]
            area = 0.5 * abs(sum(p[k, 0] * p[(k + 1) % 4, 1] - p[(k + 1) % 4, 0] * p[k, 1]
                                 for k in range(4)))
            good &= area > 0.9 * np.linalg.norm(p[1] - p[0]) * np.linalg.norm(p[3] - p[0])
        ok(good, "%s: %s's quadrilaterals go round their corners" % (stem, block))


def frame_body(stem, d, csvpath, spatial):
    """Each body's point and axes at every frame are its CSV coordinates."""
    fr = frames(d)
    names, rows = csv(csvpath)
    col = {n: i for i, n in enumerate(names)}
    worst = 0.0
    nb = 0
    for k, (t, f) in enumerate(fr):
        ds = blocks(f)["bodies"]
        x, ax, ay = pts(ds), arr(ds, "axis_x"), arr(ds, "axis_y")
        bodies = [n[:-2] for n in names if n.endswith(".x") and n[:-2] + ".angle" in col or
                  n.endswith(".x") and n[:-2] + ".d1x" in col]
        nb = len(bodies)
        for i, b in enumerate(bodies):
            r = rows[k]
            want = [r[col[b + ".x"]], r[col[b + ".y"]], r[col[b + ".z"]] if spatial else 0.0]
            if spatial:
                wx = [r[col[b + ".d1" + c]] for c in "xyz"]
                wy = [r[col[b + ".d2" + c]] for c in "xyz"]
            else:
                th = r[col[b + ".angle"]]
                wx, wy = [np.cos(th), np.sin(th), 0], [-np.sin(th), np.cos(th), 0]
            worst = max(worst, np.abs(x[i] - want).max(), np.abs(ax[i] - wx).max(),
                        np.abs(ay[i] - wy).max())
    ok(nb > 0 and worst <= 1e-15,
       "%s: %d bodies' frames at %d frames are the CSV's (largest difference %.3g)" %
       (stem, nb, len(fr), worst))


def sheet(stem, d, csvpath):
    """The car pendulum's sheet at its last frame: the reference mesh plus the
    CSV's reduced coordinates expanded through the basis file by numpy, in
    the flexible body's frame; the displacement field likewise."""
    fr = frames(d)
    names, rows = csv(csvpath)
    col = {n: i for i, n in enumerate(names)}
    basis = read_vtu(os.path.join(d, "car_pendulum_basis_sheet.vtu"))
    X = pts(basis)
    r = sum(1 for n in names if n.startswith("sheet.q") and n[7:].isdigit())
    phi = np.stack([arr(basis, "phi_%d" % (k + 1)) for k in range(r)], axis=2)  # n x 3 x r
    k = len(fr) - 1
    row = rows[k]
    q = np.array([row[col["sheet.q%d" % (j + 1)]] for j in range(r)])
    u = phi @ q
    th = row[col["pend.angle"]]
    A = np.array([[np.cos(th), -np.sin(th), 0], [np.sin(th), np.cos(th), 0], [0, 0, 1]])
    want = (X + u) @ A.T + np.array([row[col["pend.x"]], row[col["pend.y"]], 0])
    ds = blocks(fr[k][1])["mesh_sheet"]
    got = pts(ds)
    err = np.abs(got - want).max()
    umax = np.abs(u).max()
    ok(r > 0 and umax > 0 and err <= 1e-12 * max(1.0, np.abs(want).max()),
       "%s: the sheet's %d nodes at t = %g s are the CSV's %d reduced coordinates expanded "
       "(largest |u| %.3g m, difference %.3g m)" % (stem, len(X), fr[k][0], r, umax, err))
    dis = arr(ds, "displacement")
    ok(np.abs(dis - u @ A.T).max() <= 1e-12 * max(umax, 1e-30) + 1e-18,
       "%s: the displacement field is A Phi q" % stem)
    at0 = np.abs(X[:, 0]) < 1e-12
    ok(at0.any() and np.abs(phi[at0]).max() == 0,
       "%s: the basis is zero at the clamped nodes (x = 0)" % stem)


def contacts(stem, d, csvpath, n):
    """The contacts' normal forces at every frame: their root sum of squares is
    the CSV's fc = sqrt(sum c[i].force^2), their count > 0 the CSV's nc."""
    fr = frames(d)
    names, rows = csv(csvpath)
    col = {c: i for i, c in enumerate(names)}
    worst, cnt_ok, peak = 0.0, True, 0.0
    for k, (t, f) in enumerate(fr):
        ds = blocks(f)["contacts"]
        fn = arr(ds, "normal_force")
        if len(fn) != n:
            cnt_ok = False
            continue
        fc = rows[k, col["fc"]]
        peak = max(peak, fc)
        worst = max(worst, abs(np.sqrt(np.sum(fn ** 2)) - fc) / max(fc, 1e-300) if fc > 0 else
                    np.abs(fn).max())
        cnt_ok &= int(np.sum(fn > 0)) == int(rows[k, col["nc"]])
        st = arr(ds, "state")
        cnt_ok &= bool(np.all((st == 0) == (fn <= 0)))
    ok(peak > 0 and worst <= 1e-9,
       "%s: |f_c| of the %d contacts at %d frames is the CSV's fc (peak %.4g N, largest "
       "relative difference %.3g)" % (stem, n, len(fr), peak, worst))
    ok(cnt_ok, "%s: the closed contacts are the CSV's nc, state 0 where open" % stem)


def modes(stem, d, name, freq_csv, shapes_csv):
    """The mode files of `analysis NAME : modes(...)`: one per mode, each
    frequency the analysis's f_reduced_Hz, each displacement field the
    analysis's reduced shape (NAME_shapes.csv, per DOF) up to its scale,
    its largest node moved a tenth of the mesh's size."""
    fn, fr = csv(freq_csv)
    sn, sh = csv(shapes_csv)
    n = len(fr)
    files = sorted(glob.glob(os.path.join(d, name + "_mode_*.vtu")))
    ok(len(files) == n, "%s: %d mode files for %d modes" % (stem, len(files), n))
    fcol, worst_f, worst_s, scale_ok = fn.index("f_reduced_Hz"), 0.0, 0.0, True
    for k in range(1, n + 1):
        ds = read_vtu(os.path.join(d, "%s_mode_%d.vtu" % (name, k)))
        f = v2n(ds.GetFieldData().GetArray("frequency_Hz"))[0]
        ev = v2n(ds.GetFieldData().GetArray("eigenvalue"))[0]
        worst_f = max(worst_f, abs(f - fr[k - 1, fcol]) / fr[k - 1, fcol],
                      abs(ev[1] / (2 * np.pi) - fr[k - 1, fcol]) / fr[k - 1, fcol])
        u = arr(ds, "displacement")
        x = pts(ds) - u
        size = np.linalg.norm(x.max(axis=0) - x.min(axis=0))
        scale_ok &= abs(np.linalg.norm(u, axis=1).max() - 0.1 * size) <= 1e-12 * size
        # the translational DOFs of the shapes table (node ids from 1, components 0 1 2)
        want, got = [], []
        for row in sh:
            node, comp = int(row[1]), int(row[2])
            if comp < 3:
                want.append(row[sn.index("reduced%d" % k)])
                got.append(u[node - 1, comp])
        want, got = np.array(want), np.array(got)
        cosang = abs(want @ got) / (np.linalg.norm(want) * np.linalg.norm(got))
        worst_s = max(worst_s, 1 - cosang)
    ok(n > 0 and worst_f <= 1e-9, "%s: the modes' frequencies are the analysis's (largest "
       "relative difference %.3g)" % (stem, worst_f))
    ok(worst_s <= 1e-9 and scale_ok, "%s: each mode's displacement is the analysis's reduced "
       "shape (1 - |cos| at most %.3g), its largest node moved 0.1 of the mesh" % (stem, worst_s))


def linear(stem, d, name, csv_path, modes_name):
    """The mode files of `analysis NAME : linear(...)`: one per eigenvalue of
    non-negative imaginary part of NAME.csv, in its order; each file's
    eigenvalue its row's; its largest point moved a tenth of the scene's
    size. The cantilever's (undamped) linear modes are its normal modes:
    each displacement is parallel to the `modes` analysis's file of the same
    number (an independent computation, dsygv on Kr and Mr), and real."""
    names, rows = csv(csv_path)
    col = {c: i for i, c in enumerate(names)}
    want = [r for r in rows if r[col["im"]] >= 0][:20]
    files = sorted(glob.glob(os.path.join(d, name + "_mode_*.vtu")))
    print("MEASURE: seeing.linear.%s.files %d" % (stem, len(files)))
    ok(len(files) == len(want) > 0, "%s: %d linear mode files for the %d eigenvalues of "
       "non-negative imaginary part" % (stem, len(files), len(want)))
    worst_e, worst_s, worst_i, scale_ok, nsame = 0.0, 0.0, 0.0, True, 0
    for k in range(1, len(files) + 1):
        ds = read_vtu(os.path.join(d, "%s_mode_%d.vtu" % (name, k)))
        fd = ds.GetFieldData()
        ev = v2n(fd.GetArray("eigenvalue"))[0]
        row = rows[int(v2n(fd.GetArray("row"))[0]) - 1]
        lam = abs(complex(row[col["re"]], row[col["im"]]))
        worst_e = max(worst_e, abs(complex(ev[0], ev[1]) - complex(row[col["re"]],
                      row[col["im"]])) / lam,
                      abs(v2n(fd.GetArray("frequency_Hz"))[0] - row[col["f_Hz"]]) / lam)
        same = row[col["k"]] == want[k - 1][col["k"]]
        u, ui = arr(ds, "displacement"), arr(ds, "displacement_im")
        x = pts(ds) - u
        size = np.linalg.norm(x.max(axis=0) - x.min(axis=0))
        amp = np.sqrt(np.sum(u ** 2 + ui ** 2, axis=1))
        scale_ok &= same and abs(amp.max() - 0.1 * size) <= 1e-12 * size
        scale_ok &= bool(np.allclose(arr(ds, "amplitude"), amp, rtol=0, atol=1e-14 * size))
        worst_i = max(worst_i, np.abs(ui).max() / np.abs(u).max())
        other = os.path.join(d, "%s_mode_%d.vtu" % (modes_name, k))
        if os.path.exists(other):
            v = arr(read_vtu(other), "displacement")
            cosang = abs(np.sum(u * v)) / (np.linalg.norm(u) * np.linalg.norm(v))
            worst_s = max(worst_s, 1 - cosang)
            nsame += 1
    ok(worst_e <= 1e-9 and scale_ok, "%s: each linear mode's eigenvalue is its row of %s "
       "(largest relative difference %.3g), in the CSV's order, its largest point moved 0.1 "
       "of the scene" % (stem, os.path.basename(csv_path), worst_e))
    if modes_name == "-":
        return
    ok(nsame > 0 and worst_s <= 1e-9 and worst_i <= 1e-9,
       "%s: the first %d linear modes are the modes analysis's shapes (1 - |cos| at most %.3g), "
       "real (|imaginary part| at most %.3g of the real)" % (stem, nsame, worst_s, worst_i))


def locus(stem, d, name, csv_path, nnode, ncell, real, moved="upper"):
    """The mode files of `analysis NAME : complex_modes(...)`: at every
    position of the locus (NAME.csv's), NAME_at_Pmm_mode_K.vtu (P the
    position in mm, %.9g), its unstable modes, then its lowest, at most 20,
    in the CSV's order; each file's eigenvalue, position and flag its row's;
    the shape belongs to the eigenvalue (the runtime's residual of the
    projected eigen-equation, from the CSV's eigenvalue and the vector); the
    scene is the FE meshes (nnode points, ncell cells), the moved
    substructure's undeformed mesh (the basis file's) translated by P along
    x, the others' where they are. The measures are those of the position
    whose largest real part is largest (the first on ties). real = 1: no
    friction and proportional damping, so every shape is real up to its
    phase (an independent property of the vector: friction's non-symmetric
    stiffness makes them complex)."""
    names, rows = csv(csv_path)
    col = {c: i for i, c in enumerate(names)}
    best = rows[int(np.argmax(rows[:, col["real"]])), col["position"]]
    ref = {os.path.basename(f).rsplit("_basis_", 1)[1][:-4]: pts(read_vtu(f))
           for f in glob.glob(os.path.join(d, "*_basis_*.vtu"))}
    positions = sorted(set(rows[:, col["position"]]))
    nfile_all = len(glob.glob(os.path.join(d, name + "_at_*mm_mode_*.vtu")))
    nwant_all, count_ok, same, scale_ok, place_ok = 0, True, True, True, len(ref) == 2
    worst_e, worst_r, worst_place, unst_best, worst_i, ufreq = 0.0, 0.0, 0.0, 0, 0.0, 0.0
    for p in positions:
        at = [i for i in range(len(rows)) if rows[i, col["position"]] == p]
        unst = [i for i in at if rows[i, col["unstable"]] == 1]
        want = (unst + [i for i in at if i not in unst])[:20]
        want.sort()
        nwant_all += len(want)
        tag = "%s_at_%.9gmm_mode_" % (name, p * 1e3 + 0.0)
        files = glob.glob(os.path.join(d, tag + "*.vtu"))
        count_ok &= len(files) == len(want) > 0
        wi = 0.0
        for k in range(1, len(files) + 1):
            ds = read_vtu(os.path.join(d, "%s%d.vtu" % (tag, k)))
            fd = ds.GetFieldData()
            row_k = int(v2n(fd.GetArray("row"))[0])
            same &= k <= len(want) and row_k == want[k - 1] + 1
            row = rows[row_k - 1]
            s = complex(row[col["real"]], 2 * np.pi * row[col["frequency"]])
            ev = v2n(fd.GetArray("eigenvalue"))[0]
            worst_e = max(worst_e, abs(complex(ev[0], ev[1]) - s) / abs(s),
                          abs(v2n(fd.GetArray("frequency_Hz"))[0] - row[col["frequency"]]) /
                          row[col["frequency"]])
            same &= v2n(fd.GetArray("position"))[0] == p
            same &= v2n(fd.GetArray("unstable"))[0] == row[col["unstable"]]
            if p == best and row[col["unstable"]] == 1:
                ufreq = max(ufreq, v2n(fd.GetArray("frequency_Hz"))[0])
            worst_r = max(worst_r, v2n(fd.GetArray("residual"))[0])
            same &= ds.GetNumberOfPoints() == nnode and ds.GetNumberOfCells() == ncell
            u, ui = arr(ds, "displacement"), arr(ds, "displacement_im")
            x = pts(ds) - u
            # the meshes in the scene's order (lower, upper), the moved one at p
            at0 = 0
            for mesh in ("lower", "upper"):
                if mesh not in ref:
                    continue
                X = ref[mesh].copy()
                if mesh == moved:
                    X[:, 0] += p
                n = len(X)
                dev = np.abs(x[at0:at0 + n] - X).max() / np.abs(X).max()
                worst_place = max(worst_place, dev)
                at0 += n
            if k == 1:
                size0 = np.linalg.norm(np.ptp(np.vstack(list(ref.values())), axis=0))
            amp = np.sqrt(np.sum(u ** 2 + ui ** 2, axis=1))
            scale_ok &= abs(amp.max() - 0.1 * size0) <= 1e-12 * size0
            wi = max(wi, np.linalg.norm(ui) / np.linalg.norm(u))
        worst_i = max(worst_i, wi)
        if p == best:
            unst_best, imag_best = len(unst), wi
    place_ok &= worst_place <= 1e-12
    ok(count_ok and nfile_all == nwant_all, "%s: %d complex mode files at the %d positions of "
       "the locus (%.6g to %.6g m), each position's wanted modes under its name"
       % (stem, nfile_all, len(positions), positions[0], positions[-1]))
    ok(same and worst_e <= 1e-12, "%s: each complex mode's eigenvalue, position and flag are "
       "its row of %s (largest relative difference %.3g), %d points and %d cells"
       % (stem, os.path.basename(csv_path), worst_e, nnode, ncell))
    ok(worst_r <= 1e-12 and scale_ok, "%s: each shape satisfies its eigen-equation (relative "
       "residual at most %.3g), its largest point moved 0.1 of the scene" % (stem, worst_r))
    ok(place_ok, "%s: the %s mesh drawn translated to each position along x, the other in "
       "place (largest relative deviation %.3g)" % (stem, moved, worst_place))
    print("MEASURE: seeing.locus.%s.unstable %d" % (stem, unst_best))
    print("MEASURE: seeing.locus.%s.imag %.3g" % (stem, imag_best))
    print("MEASURE: seeing.locus.%s.ufreq %.6g" % (stem, ufreq))
    if real == "1":
        ok(worst_i <= 1e-9, "%s: without friction every shape is real (|imaginary part| at most "
           "%.3g of the real)" % (stem, worst_i))
    else:
        ok(imag_best >= 1e-3, "%s: with friction the shapes are complex (|imaginary part| up to "
           "%.3g of the real at the most unstable position)" % (stem, imag_best))


def mcontacts(stem, d, csvpath, cols, mcols, key=None):
    """The contact between markers (the last point of the contacts block, a
    clearance joint's) at every frame against the CSV's columns: cols its gap,
    normal force, friction force and slip rate ('-': no column), mcols the
    first marker's x, y, z; the state 0 where the normal force is 0, the
    force vector the normal force along the line between the markers."""
    fr = frames(d)
    names, rows = csv(csvpath)
    col = {c: i for i, c in enumerate(names)}
    what = ["gap", "normal_force", "friction_force", "slip_rate"]
    cols, mcols = cols.split(","), mcols.split(",")
    worst, peak, good, nclosed = 0.0, 0.0, len(fr) == len(rows) > 0, 0
    for k, (t, f) in enumerate(fr):
        ds = blocks(f)["contacts"]
        for a, c in zip(what, cols):
            if c != "-":
                v, want = arr(ds, a)[-1], rows[k, col[c]]
                worst = max(worst, abs(v - want) / max(abs(want), 1e-300) if want else abs(v))
        for j, c in enumerate(mcols):
            if c != "-":
                v, want = arr(ds, "marker_a")[-1][j], rows[k, col[c]]
                worst = max(worst, abs(v - want) / max(abs(want), 1e-300) if want else abs(v))
        fn, st = arr(ds, "normal_force")[-1], arr(ds, "state")[-1]
        a, b, fv = arr(ds, "marker_a")[-1], arr(ds, "marker_b")[-1], arr(ds, "force")[-1]
        good &= bool((st == 0) == (fn <= 0)) and np.allclose(pts(ds)[-1], (a + b) / 2, atol=1e-15)
        good &= abs(np.linalg.norm(fv) - abs(fn)) <= 1e-12 * max(abs(fn), 1)
        if fn > 0 and nclosed == 0:
            first = t
        peak = max(peak, fn)
        nclosed += fn > 0
    if key:  # docs/seeing.md's figures (docs/testing.md, "Numbers in the docs")
        print("MEASURE: %s.frames %d\nMEASURE: %s.closed %d\nMEASURE: %s.peak %.17g"
              % (key, len(fr), key, nclosed, key, peak))
        if nclosed:
            print("MEASURE: %s.first %.17g" % (key, first))
    ok(good and worst <= 1e-12, "%s: the contact between markers at %d frames is the CSV's %s "
       "(largest relative difference %.3g; closed at %d frames, peak %.4g N)"
       % (stem, len(fr), ",".join(c for c in cols + mcols if c != "-"), worst, nclosed, peak))


def mpair(stem, d, csvpath):
    """A friction drawn on the contact it shares its ends with (issue 32): of
    two contacts from one marker to two points of the ground, the second (the
    friction's) carries the CSV's fr and v at every frame, the first 0."""
    fr = frames(d)
    names, rows = csv(csvpath)
    col = {c: i for i, c in enumerate(names)}
    worst, good, rubbed = 0.0, len(fr) == len(rows) > 0, 0
    for k, (t, f) in enumerate(fr):
        ds = blocks(f).get("contacts")
        if ds is None or ds.GetNumberOfPoints() != 2:
            good = False
            break
        ff, sv = arr(ds, "friction_force"), arr(ds, "slip_rate")
        worst = max(worst, abs(ff[0]), abs(sv[0]), abs(ff[1] - rows[k, col["fr"]]),
                    abs(sv[1] - rows[k, col["v"]]))
        rubbed += rows[k, col["fr"]] != 0
    ok(good and worst <= 1e-12 and rubbed > 0,
       "%s: the friction is drawn on the contact of its ground point, not on the first one "
       "declared from the same marker, at %d frames (largest difference %.2g; rubbing at %d)"
       % (stem, len(fr), worst, rubbed))


def minstances(stem, d, csvpath, n, rho0, xstep="0"):
    """An array's contacts between markers (issue 32): instance i (1..n) is
    the contacts block's point i - 1 at every frame, its gap, normal force,
    friction force and slip rate the CSV's gapI, fnI, ftI, vI, its first
    marker the CSV's xI, yI, its second the ground point (I xstep, 0); the state
    0 where the normal force is 0, the force vector as long as the normal
    force; the bearing axis z and the contact point b + rho_b n with the
    instance's rho_b = rho0 + I mm (n from b to a); each closes at some frame."""
    fr = frames(d)
    names, rows = csv(csvpath)
    col = {c: i for i, c in enumerate(names)}
    n, rho0, xstep = int(n), float(rho0), float(xstep)
    what = [("gap", "gap"), ("normal_force", "fn"), ("friction_force", "ft"),
            ("slip_rate", "v")]
    worst, good = 0.0, len(fr) == len(rows) > 0
    closed = [0] * n
    for k, (t, f) in enumerate(fr):
        ds = blocks(f).get("contacts")
        if ds is None or ds.GetNumberOfPoints() != n:
            good = False
            break
        for i in range(n):
            for a, c in what:
                v, want = arr(ds, a)[i], rows[k, col["%s%d" % (c, i + 1)]]
                worst = max(worst, abs(v - want) / max(abs(want), 1e-300) if want else abs(v))
            a, b = arr(ds, "marker_a")[i], arr(ds, "marker_b")[i]
            want = np.array([rows[k, col["x%d" % (i + 1)]], rows[k, col["y%d" % (i + 1)]], 0])
            worst = max(worst, np.abs(a - want).max(),
                        np.abs(b - [(i + 1) * xstep, 0, 0]).max())
            fn, st, fv = arr(ds, "normal_force")[i], arr(ds, "state")[i], arr(ds, "force")[i]
            good &= bool((st == 0) == (fn <= 0)) and np.allclose(pts(ds)[i], (a + b) / 2,
                                                                  atol=1e-15)
            good &= abs(np.linalg.norm(fv) - abs(fn)) <= 1e-12 * max(abs(fn), 1)
            ax, cp = arr(ds, "bearing_axis")[i], arr(ds, "contact_point")[i]
            rho = rho0 + (i + 1) * 1e-3
            dv = a - b
            nv = np.linalg.norm(dv)
            worst = max(worst, np.abs(ax - [0, 0, 1]).max(),
                        np.abs(cp - (b + (rho * dv / nv if nv > 0 else 0))).max())
            closed[i] += fn > 0
    ok(good and worst <= 1e-12 and min(closed) > 0,
       "%s: the %d instances of the contact array between markers at %d frames are the "
       "CSV's gap, fn, ft, v, x, y of each, their contact points on races of %g + i mm "
       "(largest difference %.3g; closed at %s frames)"
       % (stem, n, len(fr), rho0 * 1e3, worst, ",".join(map(str, closed))))
    print("MEASURE: seeing.pins.frames %d" % len(fr))  # docs/seeing.md


def dmarker(stem, d, csvpath, half):
    """A marker moved by `-D` (issue 32): the pendulum's `top = (0, L/2)` with
    the run's L = 2 half: at every frame the bodies block's marker is the
    rod's point plus half along its y axis (its axes the CSV's angle), the
    joint `pin` drawn there, and the pin holds it at the origin."""
    fr = frames(d)
    names, rows = csv(csvpath)
    col = {c: i for i, c in enumerate(names)}
    half = float(half)
    worst, pin, good = 0.0, 0.0, len(fr) == len(rows) > 0
    for k, (t, f) in enumerate(fr):
        b = blocks(f)
        x, ay = pts(b["bodies"]), arr(b["bodies"], "axis_y")
        th = rows[k, col["angle"]]
        worst = max(worst, np.abs(ay[0] - [-np.sin(th), np.cos(th), 0]).max(),
                    np.abs(x[1] - (x[0] + half * ay[0])).max(),
                    np.abs(pts(b["joints"])[0] - x[1]).max())
        pin = max(pin, np.abs(x[1]).max())
    ok(good and worst <= 1e-12 and pin <= 1e-9,
       "%s: the marker moved by -D is at the rod's point + %g m along its axis at %d frames "
       "(largest difference %.3g m), the joint drawn there, at the pin to %.3g m"
       % (stem, half, len(fr), worst, pin))


def shapes(stem, d, want):
    """The bodies' shapes at the last frame: body i's `shape` and `size`
    arrays, and its faces (the bodies block's polygons): a box's corners at
    +-lx/2, +-ly/2 (, +-lz/2) about its point, along its axes; a cylinder's
    and a sphere's at its radius from the point or the axis. want: i:kind:sizes"""
    fr = frames(d)
    ds = blocks(fr[-1][1])["bodies"]
    x, sh, sz = pts(ds), arr(ds, "shape"), arr(ds, "size")
    body = arr(ds, "body")
    polys = ds.GetPolys()
    good, faces = True, 0
    for w in want.split(";"):
        i, kind, sizes = w.split(":")
        i, kind, sizes = int(i), int(kind), [float(v) for v in sizes.split(",")]
        good &= int(sh[i]) == kind and np.allclose(sz[i][:len(sizes)], sizes, rtol=1e-15, atol=0)
        # the body's shape points: after the bodies and markers, of this body
        own = [k for k in range(len(x)) if int(body[k]) == i and int(sh[k]) == kind and
               k >= ds.GetNumberOfVerts() and k not in range(ds.GetNumberOfVerts(),
               ds.GetNumberOfVerts() + ds.GetNumberOfLines())]
        rel = x[own] - x[i]
        ax = np.stack([arr(ds, "axis_x")[i], arr(ds, "axis_y")[i], arr(ds, "axis_z")[i]])
        loc = rel @ ax.T  # in the body's axes
        if kind == 1:
            good &= bool(np.allclose(np.abs(loc[:, :2]), np.array(sizes[:2]) / 2, atol=1e-12))
        elif kind == 3:
            good &= bool(np.allclose(np.linalg.norm(loc, axis=1), sizes[0], atol=1e-12))
        good &= len(own) > 0
    faces = polys.GetNumberOfCells()
    ok(good and faces > 0, "%s: the bodies' shapes (%s) are drawn at their sizes about their "
       "frames (%d faces)" % (stem, want, faces))


def nodemarker(stem, d, csvpath, basis, block, nodes_csv, nset, body, ycol):
    """A flexible body's node marker (issue 32): at every frame the bodies
    block has a marker of body `body` at the deformed node of set `nset`
    (nodes_csv's row, found by its reference place in the basis file), which
    the mesh block draws, and its y is the CSV's column ycol; that node
    moves (so that the body's frame point would not do)."""
    fr = frames(d)
    names, rows = csv(csvpath)
    col = {n: i for i, n in enumerate(names)}
    X = pts(read_vtu(os.path.join(d, basis)))
    ref = [ln.split(",") for ln in open(nodes_csv).read().splitlines()[1:]]
    at = [np.array([float(v) for v in r[1:4]]) for r in ref if r[-1].strip() == nset]
    idx = [int(np.argmin(np.linalg.norm(X - x, axis=1))) for x in at]
    good = len(idx) == 1 and np.linalg.norm(X[idx[0]] - at[0]) < 1e-12 and len(fr) == len(rows)
    worst, umax = 0.0, 0.0
    for k, (t, f) in enumerate(fr):
        b = blocks(f)
        node = pts(b[block])[idx[0]] if good else np.zeros(3)
        bd = b["bodies"]
        x, bo = pts(bd), arr(bd, "body")
        nb = bd.GetNumberOfVerts()
        mine = [j for j in range(nb, nb + bd.GetNumberOfLines()) if int(bo[j]) == int(body)]
        dist = min((np.linalg.norm(x[j] - node) for j in mine), default=1.0)
        worst = max(worst, dist, abs(node[1] - rows[k, col[ycol]]))
        umax = max(umax, np.linalg.norm(arr(b[block], "displacement")[idx[0]]) if good else 0)
    ok(good and worst <= 1e-12 and umax > 1e-7,
       "%s: the node marker of set %s is at its deformed node at %d frames, y the CSV's %s "
       "(largest difference %.3g m; the node moves up to %.3g m)"
       % (stem, nset, len(fr), ycol, worst, umax))


def axes(stem, d, want):
    """The joints' axes (issue 32) at every frame against the model's:
    want i:axis[:axis_a];... (world vectors as declared; '*' a unit vector
    normal to axis_a, a universal joint's pin fixed in the moving body)."""
    fr = frames(d)
    worst, good = 0.0, len(fr) > 0
    for t, f in fr:
        ds = blocks(f)["joints"]
        ax, axa = arr(ds, "axis"), arr(ds, "axis_a")
        for w in want.split(";"):
            parts = w.split(":")
            i = int(parts[0])
            for v, got in zip(parts[1:], (ax[i], axa[i])):
                if v == "*":
                    worst = max(worst, abs(np.linalg.norm(got) - 1), abs(got @ axa[i]))
                else:
                    want_v = np.array([float(c) for c in v.split(",")])
                    worst = max(worst, np.abs(got - want_v).max())
            if len(parts) < 3:
                worst = max(worst, np.abs(axa[i]).max())
    ok(good and worst <= 1e-12, "%s: the joints' axes at %d frames are the model's (%s; largest "
       "difference %.3g)" % (stem, len(fr), want, worst))


def races(stem, d, csvpath, cols, xb, rho_b, axis):
    """A clearance joint's races (issue 32; the last point of the contacts
    block) at every frame: its bearing axis the model's (world; '-': a unit
    vector), its contact point b + rho_b n (n the unit vector from b to a
    across the axis) from the block's markers, and with cols (the CSV's
    y, z of marker a; '-': none) b = xb, n from those columns."""
    fr = frames(d)
    names, rows = csv(csvpath) if cols != "-" else ([], None)
    col = {c: i for i, c in enumerate(names)}
    rho = float(rho_b)
    worst, good = 0.0, len(fr) > 0
    for k, (t, f) in enumerate(fr):
        ds = blocks(f)["contacts"]
        a, b = arr(ds, "marker_a")[-1], arr(ds, "marker_b")[-1]
        ax, cp = arr(ds, "bearing_axis")[-1], arr(ds, "contact_point")[-1]
        if axis == "-":
            worst = max(worst, abs(np.linalg.norm(ax) - 1))
        else:
            worst = max(worst, np.abs(ax - np.array([float(c) for c in axis.split(",")])).max())
        dv = (a - b) - ((a - b) @ ax) * ax  # centred (0): the contact point is b
        nv = np.linalg.norm(dv)
        worst = max(worst, np.abs(cp - (b + (rho * dv / nv if nv > 0 else 0))).max())
        if cols != "-":
            yz = np.array([rows[k, col[c]] for c in cols.split(",")])
            want = np.array([float(c) for c in xb.split(",")])
            if np.linalg.norm(yz) > 0:
                want[1:] += rho * yz / np.linalg.norm(yz)
            worst = max(worst, np.abs(cp - want).max())
        good &= bool(np.isfinite(cp).all() and np.isfinite(ax).all())
    ok(good and worst <= 1e-12, "%s: the clearance joint's bearing axis and contact point (on a "
       "race of %g m) at %d frames (largest difference %.3g)" % (stem, rho, len(fr), worst))


if __name__ == "__main__":
    kind, args = sys.argv[1], sys.argv[2:]
    if kind == "every":
        every(*args)
    elif kind == "fe":
        mesh_vs_fe(args[0], args[1], args[2], args[3].split(","), args[4], int(args[5]),
                   [float(v) for v in args[6].split(",")])
    elif kind == "gen":
        generated(args[0], args[1], args[2], int(args[3]), int(args[4]), int(args[5]))
    elif kind == "bodies":
        frame_body(args[0], args[1], args[2], args[3] == "3d")
    elif kind == "sheet":
        sheet(*args)
    elif kind == "modes":
        modes(*args)
    elif kind == "linear":
        linear(*args)
    elif kind == "locus":
        locus(args[0], args[1], args[2], args[3], int(args[4]), int(args[5]), args[6])
    elif kind == "mcontacts":
        mcontacts(*args)
    elif kind == "minstances":
        minstances(*args)
    elif kind == "mpair":
        mpair(*args)
    elif kind == "dmarker":
        dmarker(*args)
    elif kind == "shapes":
        shapes(*args)
    elif kind == "nodemarker":
        nodemarker(*args)
    elif kind == "axes":
        axes(*args)
    elif kind == "races":
        races(*args)
    elif kind == "contacts":
        contacts(args[0], args[1], args[2], int(args[3]))
