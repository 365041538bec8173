"""The rows of a run (Result): named numpy columns with their SI units, a
pandas DataFrame on request (to_pandas, units in df.attrs), and an HTML
table for notebooks (_repr_html_). Also the small HTML helpers the Model's
own _repr_html_ uses.
"""
from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence

import numpy as np

if TYPE_CHECKING:  # pandas is optional: imported by to_pandas() only
    import pandas

__all__ = ["Result"]

# rows a notebook shows: the first and the last HTML_ROWS (all when at most twice that)
HTML_ROWS = 5


def html_table(head: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """An HTML table of text cells (escaped); a cell of None is empty."""
    out = ["<table>", "<thead><tr>"]
    out += ["<th>%s</th>" % h for h in head]  # head cells are HTML already
    out.append("</tr></thead><tbody>")
    for r in rows:
        out.append("<tr>" + "".join("<td>%s</td>" % ("" if c is None else html.escape(str(c)))
                                    for c in r) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def number(v: float) -> str:
    """A value for a table: 6 significant digits."""
    return "%.6g" % v


class Result:
    """Rows of a run.

    r.columns: the names (the model's output block, or a CSV's header);
    r.data: a numpy array, rows x columns; r["x"]: one column; r.t: the time
    column; r.units: {column: SI unit}, "" when dimensionless or not known;
    r.stats: the run's counters (steps, rejected, rhs_evals, ...,
    cpu_seconds; {} for a table read from a file); len(r): the rows.
    r.to_pandas() gives a DataFrame with the units in df.attrs; in a
    notebook a Result shows as a table of its first and last rows.
    """

    def __init__(self, columns: Iterable[str], data: np.ndarray,
                 stats: Optional[Mapping[str, Any]] = None,
                 units: Optional[Sequence[str]] = None) -> None:
        self.columns: List[str] = list(columns)
        self.data: np.ndarray = data
        self.stats: Dict[str, Any] = dict(stats or {})
        self.units: Dict[str, str] = dict(zip(self.columns, units or [""] * len(self.columns)))

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.data[:, self.columns.index(name)]
        except ValueError:
            raise KeyError("no output column '%s' (columns: %s)"
                           % (name, ", ".join(self.columns))) from None

    @property
    def t(self) -> np.ndarray:
        """The column named t (the first column when there is none)."""
        return self["t"] if "t" in self.columns else self.data[:, 0]

    def __len__(self) -> int:
        return self.data.shape[0]

    def __repr__(self) -> str:
        return "Result(%d rows: %s)" % (len(self), ", ".join(self.columns))

    def to_pandas(self, index: Optional[str] = None, copy: bool = False) -> "pandas.DataFrame":
        """The rows as a pandas DataFrame, one column per output, with
        df.attrs["units"] ({column: SI unit}, "" when dimensionless) and
        df.attrs["stats"] (the run's counters). index: a column to make the
        index (index="t"; its unit stays in attrs["units"]). The frame
        shares the Result's array unless copy=True. ImportError, saying how
        to install it, when pandas is missing (it is optional: nothing else
        needs it)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Result.to_pandas() needs pandas, which is not installed: "
                              "apt-get install python3-pandas (Debian, Ubuntu) or "
                              "pip install pandas") from None
        df = pd.DataFrame(self.data, columns=self.columns, copy=copy)
        if index is not None:
            if index not in self.columns:
                raise KeyError("no output column '%s' for the index (columns: %s)"
                               % (index, ", ".join(self.columns)))
            df = df.set_index(index)
        df.attrs["units"] = dict(self.units)
        df.attrs["stats"] = dict(self.stats)
        return df

    def _summary(self) -> str:
        parts = ["%d rows &times; %d columns" % (len(self), len(self.columns))]
        if len(self) and self.columns:
            tname = "t" if "t" in self.columns else self.columns[0]  # as self.t
            unit = self.units.get(tname, "")
            parts.append("%s from %s to %s%s" % (html.escape(tname), number(self.t[0]),
                                                 number(self.t[-1]),
                                                 " " + html.escape(unit) if unit else ""))
        st = self.stats
        if "steps" in st:
            parts.append("%d steps, %d rejected, %d right-hand sides" % (
                st["steps"], st.get("rejected", 0), st.get("rhs_evals", 0)))
        if "cpu_seconds" in st:
            parts.append("CPU %s s" % number(st["cpu_seconds"]))
        return "; ".join(parts)

    def _repr_html_(self) -> str:
        """The notebook's view: the columns with their units, the first and
        last rows, the time span and the run's counters."""
        n = len(self)
        head = [""] + ["%s<br><small>%s</small>" % (html.escape(c),
                                                    html.escape(self.units.get(c, "")))
                       for c in self.columns]
        shown: List[Optional[int]] = list(range(n)) if n <= 2 * HTML_ROWS else \
            [*range(HTML_ROWS), None, *range(n - HTML_ROWS, n)]
        rows: List[List[str]] = []
        for i in shown:
            if i is None:
                rows.append(["&hellip;"] + ["&hellip;"] * len(self.columns))
            else:
                rows.append([str(i)] + [number(v) for v in self.data[i, :len(self.columns)]])
        table = html_table(head, rows).replace("&amp;hellip;", "&hellip;")
        return ('<div class="jnt-result"><p><b>Result</b>: %s</p>%s</div>'
                % (self._summary(), table))
