"""Generated clients are kept by their inputs (tests/generated.py): generated once for the
same inputs, again for other inputs, and never kept half-made."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import generated
from tests.generated import generated_once


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory of kept outputs of this test's own (not the run's ``.venv/generated``)."""
    monkeypatch.setattr(generated, "KEPT", tmp_path / "kept")
    return tmp_path / "kept"


def test_the_same_inputs_generate_once_and_other_inputs_again(kept: Path) -> None:
    runs: list[Path] = []

    def generate(where: Path) -> None:
        runs.append(where)
        (where / "out.txt").write_text(f"run {len(runs)}")

    first = generated_once("client", [b"schema", "generator 1.0"], generate)
    again = generated_once("client", [b"schema", "generator 1.0"], generate)
    assert again == first and len(runs) == 1
    assert (first / "out.txt").read_text() == "run 1"
    # a changed schema, generator version or option is generated afresh
    for inputs in ([b"schema!", "generator 1.0"], [b"schema", "generator 1.1"]):
        other = generated_once("client", inputs, generate)
        assert other != first and (other / "out.txt").read_text() == f"run {len(runs)}"
    assert len(runs) == 3
    # the inputs' boundaries count: ["ab", "c"] is not ["a", "bc"]
    assert generated_once("split", ["ab", "c"], generate) != generated_once(
        "split", ["a", "bc"], generate
    )


def test_a_failed_generation_keeps_nothing_and_the_next_run_generates(kept: Path) -> None:
    def fail(where: Path) -> None:
        (where / "half.txt").write_text("half")
        raise RuntimeError("the generator failed")

    with pytest.raises(RuntimeError):
        generated_once("client", [b"schema"], fail)
    assert list(kept.iterdir()) == []
    made = generated_once("client", [b"schema"], lambda where: (where / "ok").write_text("ok"))
    assert [p.name for p in made.iterdir()] == ["ok"]


def test_only_the_three_newest_of_a_name_are_kept(kept: Path) -> None:
    for n in range(5):
        made = generated_once("client", [str(n)], lambda where: None)
        assert made.is_dir()  # the one just made is never the one let go
    generated_once("other", ["x"], lambda where: None)
    names = sorted(p.name.split("-")[0] for p in kept.iterdir())
    assert names == ["client", "client", "client", "other"]
