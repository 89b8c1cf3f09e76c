"""Writing tables to files, atomically: a crash never leaves a half-written file behind."""
from __future__ import annotations

import json
import os
import tempfile

import pandas as pd


def write_table(df: pd.DataFrame, path: str, fmt: str = "csv") -> None:
    """Write ``df`` as CSV or Parquet (metadata kept in the Parquet schema) via rename."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise OSError(f"cannot write {path}: directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=".hanasim-", suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        if fmt == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            table = pa.Table.from_pandas(df, preserve_index=False)
            meta = dict(table.schema.metadata or {})
            meta[b"hanasim"] = json.dumps(df.attrs, default=str).encode()
            pq.write_table(table.replace_schema_metadata(meta), tmp)
        elif fmt == "csv":
            df.to_csv(tmp, index=False)
        else:
            raise ValueError(f"unknown format {fmt!r}; use csv or parquet")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
