# Types of the optional C accelerator (src/cardrules/_speedups.c); see cardrules/_hotloops.py.
from typing import Any

def subset_objects(
    items: tuple[Any, ...], slot: Any, interned: dict[tuple[Any, ...], Any], interned_sizes: int, /
) -> tuple[Any, ...]: ...
def record_layout(
    cls: type,
    members: tuple[Any, ...],
    defaults: tuple[Any, ...],
    factories: tuple[Any, ...],
    required: object,
    /,
) -> object: ...
def new_record(layout: object, /, **fields: Any) -> Any: ...
def replace_record(layout: object, record: Any, /, **changes: Any) -> Any: ...
