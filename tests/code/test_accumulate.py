"""code.loss_accumulated_live: a loss tensor added to a total that outlives the iteration."""

from __future__ import annotations

from code_helpers import BATCH_1, file_findings, findings, fires

ID = "code.loss_accumulated_live"


def test_fires_on_the_validation_total_of_the_batch_1_reproduction() -> None:
    found = file_findings(BATCH_1 / "repro-torch-val-loss-accumulated-graph-oom" / "repro.py")
    finding = found[ID]
    assert (finding.values["line"], finding.values["total"]) == (46, "val_loss")
    assert finding.evidence[0].text == "val_loss += criterion(out, y)"
    # `correct += (out.argmax(1) == y).sum()` two lines below holds no graph: one place only.
    assert finding.values["places"] == 1


def test_fires_on_a_traceback_frames_one_line() -> None:
    assert fires("total_loss += loss", ID)


def test_quiet_on_a_one_line_frame_that_composes_the_step_loss() -> None:
    assert not fires("loss += aux_loss", ID)


LOOP = """
    total = 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        total += {added}
"""


def test_fires_on_the_live_loss_and_on_tensor_ops_that_keep_the_graph() -> None:
    assert fires(LOOP.format(added="loss"), ID)
    assert fires(LOOP.format(added="loss * x.size(0)"), ID)
    assert fires(LOOP.format(added="loss.mean()"), ID)


def test_quiet_once_the_loss_is_a_number_or_detached() -> None:
    for added in ("loss.item()", "float(loss)", "loss.detach()", "loss.data", "loss.tolist()"):
        assert not fires(LOOP.format(added=added), ID), added


def test_quiet_when_the_loss_is_composed_inside_the_step() -> None:
    source = """
        for x, y in loader:
            loss = criterion(model(x), y)
            loss += 0.1 * aux_loss
            loss.backward()
    """
    assert not fires(source, ID)


def test_quiet_when_the_total_is_reset_every_iteration() -> None:
    source = """
        total = 0.0
        for x, y in loader:
            total = 0.0
            total += criterion(model(x), y)
    """
    assert not fires(source, ID)


def test_quiet_under_no_grad_and_in_hooks_lightning_runs_without_grad() -> None:
    source = """
        total = 0.0
        with torch.no_grad():
            for x, y in loader:
                total += criterion(model(x), y)

        class Module(pl.LightningModule):
            def validation_step(self, batch, batch_idx):
                self.val_total += self.criterion(self(batch[0]), batch[1])
    """
    assert not fires(source, ID)


def test_fires_on_a_total_kept_on_self_across_calls() -> None:
    source = """
        class Module(pl.LightningModule):
            def training_step(self, batch, batch_idx):
                loss = self.criterion(self(batch[0]), batch[1])
                self.epoch_loss += loss
                return loss
    """
    assert findings(source)[ID].values["total"] == "self.epoch_loss"


def test_fires_on_outputs_appended_to_a_list_outside_no_grad() -> None:
    source = """
        model.eval()
        outputs = []
        for batch in loader:
            outputs.append(model(batch))
    """
    assert findings(source)[ID].values["how"] == "append"
    assert not fires(source.replace("model.eval()", "torch.set_grad_enabled(False)"), ID)


def test_quiet_on_a_loss_computed_from_outputs_made_without_grad() -> None:
    source = """
        total = 0.0
        for x, y in loader:
            with torch.no_grad():
                out = model(x)
            total += criterion(out, y)
    """
    assert not fires(source, ID)


def test_quiet_in_a_modules_forward_whose_lists_die_when_it_returns() -> None:
    source = """
        class Pyramid(nn.Module):
            def forward(self, features):
                outputs = []
                for level, conv in enumerate(self.convs):
                    outputs.append(self.model(features[level]))
                return outputs
    """
    assert not fires(source, ID)
