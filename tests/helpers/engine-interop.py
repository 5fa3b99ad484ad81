"""Reads an etl Parquet dataset's published state and Parquet export files with PyArrow and Polars.

Prints, as JSON, what each engine sees per table: row count, column types and Hive partition
values, so the calling test can compare them with DuckDB's answers.
"""

import json
import os
import sys

import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq


def dataset_tables(root):
    state = open(os.path.join(root, "CURRENT")).read().strip()
    manifest = json.load(open(os.path.join(root, "states", state, "manifest.json")))
    seen = {}
    for name, table in manifest["tables"].items():
        if not table["files"]:
            continue
        path = os.path.join(root, "states", state, name)
        key = table["partitionKey"]
        if key is None:
            arrow = ds.dataset(path, format="parquet").to_table()
            polars = pl.scan_parquet(os.path.join(path, "*.parquet")).collect()
        else:
            # Declared as text: bucket values are hex digits, which type inference reads as numbers.
            hive = ds.partitioning(pa.schema([(key, pa.string())]), flavor="hive")
            arrow = ds.dataset(path, format="parquet", partitioning=hive).to_table()
            polars = pl.scan_parquet(
                os.path.join(path, "**", "*.parquet"), hive_partitioning=True, hive_schema={key: pl.String}
            ).collect()
        seen[name] = describe(arrow, polars, key)
    return seen


def describe(arrow, polars, key):
    return {
        "pyarrow": {
            "rows": arrow.num_rows,
            "types": {f.name: str(f.type) for f in arrow.schema},
            "partitions": sorted(set(arrow.column(key).to_pylist())) if key else None,
        },
        "polars": {
            "rows": polars.height,
            "types": {name: str(dtype) for name, dtype in polars.schema.items()},
            "partitions": sorted(set(polars.get_column(key).to_list())) if key else None,
        },
    }


def export_tables(directory):
    seen = {}
    for file in sorted(os.listdir(directory)):
        path = os.path.join(directory, file)
        seen[file[: -len(".parquet")]] = describe(pq.read_table(path), pl.read_parquet(path), None)
    return seen


if __name__ == "__main__":
    dataset, *exports = sys.argv[1:]
    print(json.dumps({"dataset": dataset_tables(dataset), "exports": [export_tables(e) for e in exports]}))
