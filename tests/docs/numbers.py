#!/usr/bin/env python3
"""Numbers in the docs, tied to the tests that measure them (issue 30 item 6).

A figure quoted in docs/*.md or in an example's header carries a marker right
after it naming a measurement:

    energy within 2.4e-12<!--m:fourbar.rusr.energy_drift--> J

A test prints the measurement as "MEASURE: KEY VALUE" (check.h's MEASURE, or
a shell or Python test's own line); tests/run.sh collects them into
$B/tests/measures.list. Options after the key: "tol=5%" (a figure that moves
from run to run: within 5 % of the measured value), "scale=1e6" (the docs
show the value times 1e6, e.g. in microseconds).

    numbers.py check MEASURES FILE...   a PASS or FAIL line per marked figure:
                                        the figure as written must be the
                                        measured value rounded to its digits
                                        (or within tol), and every key measured
    numbers.py write MEASURES FILE...   rewrite each marked figure from the
                                        measured value at its digits (make docs)
    numbers.py count FILE...            the marked figures per file as MEASURE
                                        lines, docs.marked.NAME (docs/laws.md:
                                        laws, examples/festoon.jnt:
                                        examples.festoon) and docs.marked.all,
                                        which docs/testing.md quotes

--skip PREFIX (before the files, repeatable): figures whose key starts with
PREFIX are not checked (their tests did not run: the sanitizer build skips
the Python ones, "--skip python.").
"""
import math
import os
import re
import sys

MARK = re.compile(r'(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)<!--m:([A-Za-z0-9_.:-]+)((?: [^>]*?)?)-->')


def measures(path):
    """KEY -> value from the MEASURE lines of path (the last one wins)."""
    out = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            p = line.split()
            if len(p) == 3 and p[0] == 'MEASURE:':
                try:
                    out[p[1]] = float(p[2])
                except ValueError:
                    pass
    return out


def options(text):
    tol, scale = None, 1.0
    for opt in text.split():
        if opt.startswith('tol=') and opt.endswith('%'):
            tol = float(opt[4:-1]) / 100.0
        elif opt.startswith('scale='):
            scale = float(opt[6:])
        else:
            raise ValueError("unknown option '%s'" % opt)
    return tol, scale


def digits(written):
    """Significant digits of a figure as written ("0.0120" -> 3, "2.4e-12" -> 2)."""
    mant = re.split('[eE]', written.lstrip('-'))[0]
    d = mant.replace('.', '').lstrip('0')
    return max(len(d), 1)


def formatted(value, written):
    """value at the written figure's digits, in its style (plain or exponent)."""
    d = digits(written)
    if 'e' in written.lower():
        mant, exp = ('%.*e' % (d - 1, value)).split('e')
        return '%se%d' % (mant, int(exp))
    if value == 0:
        return written
    # plain: as many decimals as give d significant digits
    dec = max(d - 1 - int(math.floor(math.log10(abs(value)))), 0)
    return '%.*f' % (dec, value)


def agrees(written, value, tol):
    w = float(written)
    if tol is not None:
        return abs(value - w) <= tol * abs(w) if w != 0 else value == 0
    return float(formatted(value, written)) == w


def count(files):
    """MEASURE lines: the marked figures of each file and of all of them."""
    total = 0
    for path in files:
        with open(path, encoding='utf-8') as f:
            n = len(MARK.findall(f.read()))
        stem = os.path.splitext(os.path.basename(path))[0]
        name = stem if os.path.basename(os.path.dirname(path)) == 'docs' else 'examples.' + stem
        print('MEASURE: docs.marked.%s %d' % (name, n))
        total += n
    print('MEASURE: docs.marked.all %d' % total)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == 'count':
        return count(argv[1:])
    if len(argv) < 3 or argv[0] not in ('check', 'write'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    mode, got = argv[0], measures(argv[1])
    files, skip = argv[2:], []
    while len(files) >= 2 and files[0] == '--skip':
        skip.append(files[1])
        files = files[2:]
    for path in files:
        with open(path, encoding='utf-8') as f:
            text = f.read()
        lineno = lambda pos: text.count('\n', 0, pos) + 1

        def fix(m):
            written, key = m.group(1), m.group(2)
            try:
                tol, scale = options(m.group(3))
            except ValueError as e:
                print('FAIL: docs number %s:%d: %s' % (path, lineno(m.start()), e))
                return m.group(0)
            if any(key.startswith(p) for p in skip):
                return m.group(0)
            if key not in got:
                print("FAIL: docs number %s:%d: %s: no test measures '%s'"
                      % (path, lineno(m.start()), written, key))
                return m.group(0)
            v = got[key] * scale
            if mode == 'write':
                return (written if tol is not None else formatted(v, written)) + m.group(0)[len(written):]
            if agrees(written, v, tol):
                print('PASS: docs number %s:%d: %s = %s (%s)'
                      % (path, lineno(m.start()), key, written, '%.10g' % v))
            else:
                print('FAIL: docs number %s:%d: %s: the docs say %s, the test measures %.6g%s'
                      % (path, lineno(m.start()), key, written, v,
                         ' (tol %g %%)' % (tol * 100) if tol is not None else
                         ' (%s at the digits written; make docs rewrites it)' % formatted(v, written)))
            return m.group(0)

        new = MARK.sub(fix, text)
        # a marker that follows no figure (a word, a unit, a code span) would
        # otherwise be skipped silently
        spans = [m.span() for m in MARK.finditer(text)]
        for m in re.finditer(r'<!--m:[^>]*-->', text):
            if not any(a <= m.start() < b for a, b in spans):
                print('FAIL: docs number %s:%d: %s follows no figure'
                      % (path, lineno(m.start()), m.group(0)))
        if mode == 'write' and new != text:
            with open(path + '.part', 'w', encoding='utf-8') as f:
                f.write(new)
            os.replace(path + '.part', path)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
