"""A Taipa checkpoint written before its given runs counted the rounds dealt unconditioned
(``round.given_unmet_rate``): the same run and, but for the game version (bumped since, which
refuses such a folder at its manifest already), the same manifest; every batch's ``scal``
counters ``MAX_ROUNDS`` shorter and its sums from the older deal.  The batch check refuses it
too, in one line, never summed into the new run: a second guard, tested here on its own."""
import shutil

import numpy as np
import pytest
from one_line import one_line

from hanasim import api
from hanasim.engine.runner import Checkpoint, CheckpointError
from hanasim.games.taipa.tally import C_N

RUN = ["simulate", "taipa", "--rounds", "3000", "--seed", "3", "--given", "first_player=1r1",
       "--threads", "1", "--format", "csv", "--no-save"]


def as_old_code_wrote_it(batch):
    """Rewrite a batch file as the code before ``round.given_unmet_rate`` wrote it: the same
    run identity and sessions, ``scal`` C_N long (checked against a checkpoint of that code,
    commit 596a51c: its manifest and batch hash equal the new code's, its scal 46 slots)."""
    with np.load(batch) as z:
        arrays = {k: z[k] for k in z.files}
    assert arrays["scal"].shape[0] > C_N  # the new code's given run: the counters past C_N
    arrays["scal"] = arrays["scal"][:C_N]
    np.savez(batch, **arrays)


@pytest.fixture(scope="module")
def new_run(tmp_path_factory):
    """A finished checkpoint of RUN by this code and its table."""
    ck = tmp_path_factory.mktemp("taipa") / "ck"
    df = api.simulate("taipa", rounds=3000, seed=3, given=["first_player=1r1"], threads=1,
                      checkpoint=str(ck), progress=False)
    return ck, df


def test_an_old_given_checkpoint_is_refused_in_one_line(new_run, tmp_path, run_cli):
    ck = tmp_path / "ck"
    shutil.copytree(new_run[0], ck)
    batches = sorted(ck.glob("batch-*.npz"))
    assert batches
    for b in batches:
        as_old_code_wrote_it(b)
    before = {b: b.read_bytes() for b in batches}
    r = run_cli(*RUN, "--checkpoint", str(ck), "--resume")
    line = one_line(r, "from another run", "scal", "give a new folder", code=1)
    assert "move it away" not in line  # not one batch to recompute: the whole folder is old
    assert r.stdout == ""  # no table
    assert {b: b.read_bytes() for b in batches} == before  # nothing deleted or rewritten


def test_the_new_checkpoint_resumes_to_the_same_table(new_run, tmp_path, run_cli):
    """The refusal above is the old layout's, not every resume's."""
    ck = tmp_path / "ck"
    shutil.copytree(new_run[0], ck)
    r = run_cli(*RUN, "--checkpoint", str(ck), "--resume")
    assert r.returncode == 0, r.stderr
    plain = run_cli(*RUN)
    assert r.stdout == plain.stdout


def test_a_batch_missing_a_counter_is_another_runs(tmp_path):
    """A batch file without one of the run's counters (a layout with a counter fewer) is
    refused as another run's, not read as damaged nor summed."""
    sums = {"x": np.arange(3, dtype=np.int64)}
    with Checkpoint(str(tmp_path / "ck"), identity={"run": 1}) as ck:
        ck.save(0, sums, (0, 4096))
        assert ck.load(0, {"x": (3,)}, (0, 4096))["x"].tolist() == [0, 1, 2]
        with pytest.raises(CheckpointError, match="from another run: it holds no y counters"):
            ck.load(0, {"x": (3,), "y": (2,)}, (0, 4096))
        with pytest.raises(CheckpointError, match=r"x counters of shape \(3,\), this run's are "
                                                  r"\(4,\)"):
            ck.load(0, {"x": (4,)}, (0, 4096))
