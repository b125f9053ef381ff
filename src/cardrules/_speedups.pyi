# Types of the optional C accelerator (src/cardrules/_speedups.c); see cardrules/_hotloops.py.
from collections.abc import Callable, Sequence
from typing import Any, Literal

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
def first_step(actions: Sequence[Any], pairs: dict[int, tuple[int, Any]], /) -> dict[int, Any] | None: ...
def same_objects(a: tuple[Any, ...], b: tuple[Any, ...], /) -> bool: ...
def first_legal(actions: Sequence[Any], table: FirstTable, /) -> tuple[dict[Any, Any], list[Any]] | None: ...
def id_mask(size: int, ids: Sequence[int], /) -> bytearray: ...
def mask_of(new: Callable[[], Any], ids: Sequence[int], /) -> Any: ...
def fisher_yates(items: list[Any], stream: bytes, /) -> None: ...
def hand_step(
    ids: dict[Any, int], hand: tuple[Any, ...], pending: tuple[int, ...], end: Any, value: Any, /
) -> tuple[dict[Any, Any], list[Any]]: ...
def subset_root(
    hand: tuple[Any, ...], card_id: dict[Any, Any], actions: Sequence[Any], end: Any, /
) -> tuple[tuple[Any, ...], tuple[Any, ...], dict[Any, Any], list[Any]] | None: ...
def subset_step(
    ids: tuple[int, ...], end: Any, actions: tuple[Any, ...], prefix: tuple[Any, ...], /
) -> tuple[dict[Any, Any], list[Any]] | None: ...

class FirstTable:
    def __init__(self, triples: Sequence[tuple[Any, Any, Any]], /) -> None: ...
    def get(self, obj: object, /) -> tuple[Any, Any] | None: ...
    def __len__(self) -> int: ...

class Deal:
    left: int
    most: int
    start: int
    def __init__(
        self,
        alphabet: tuple[Any, ...],
        counts: Sequence[int],
        rows: dict[int, Any],
        cards: Sequence[Any] = ...,
        /,
    ) -> None: ...
    @property
    def cards(self) -> list[Any]: ...
    @property
    def counts(self) -> list[int]: ...
    @property
    def tokens(self) -> list[int]: ...
    @property
    def drawn(self) -> int: ...
    def outcomes(self, k: int, /) -> list[Any] | None: ...
    def draw(self, k: int, token: Any, /) -> bool: ...
    def counts_at(self, k: int, /) -> list[int]: ...

class LazyDict(dict[Any, Any]):
    _made: list[Any] | Literal[False] | None
    _compute: Any
    _source: Any
    _at: Any
    _player: Any
    @classmethod
    def make(
        cls, template: dict[Any, Any], compute: Any, source: Any, at: Any, player: Any, made: Any = None, /
    ) -> Any: ...
    def refresh_at(self, at: Any, /) -> None: ...

class FastMethod:
    kind: str
    fallback: Any
    drawing: Any
    terminal: Any
    subset: Any
    position: Any
    unset: Any
    infos: Any
    make: Any
    enter: Any
    def __init__(
        self,
        kind: str,
        fallback: Any,
        drawing: Any = ...,
        terminal: Any = ...,
        subset: Any = ...,
        position: Any = ...,
        unset: Any = ...,
        infos: Any = ...,
        make: Any = ...,
        enter: Any = ...,
    ) -> None: ...
    def __get__(self, obj: object, cls: type | None = ...) -> Any: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

class LazyChild:
    cls: Any
    template: dict[Any, Any]
    compute: Any
    def __init__(self, cls: Any, template: dict[Any, Any], compute: Any, /) -> None: ...
    def __call__(self, parent: Any, key: Any, /) -> Any: ...
