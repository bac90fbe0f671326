"""Closing the main window: running work stopped first, and the question asked when the tuning
is still armed on the Pi (keep it, revert it now, or let the Pi's guard revert it)."""

from __future__ import annotations

from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMessageBox

from sbctune.ui.main_window_parts import WindowParts


class ClosingWindow(WindowParts):
    """closeEvent for the main window, and the question while the tuning is armed."""

    def _ask_close_while_armed(self, left: float) -> None:
        """The tuning is armed: keep it, revert it now, or let the Pi's guard revert it. Shown
        with open(), not exec(): the event loop (and the countdown) keep running."""
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle("The tuning is not kept yet")
        box.setText(
            f"The settings applied to the Pi are armed: its guard reverts them in {left:.0f} s "
            "unless you keep them, even after sbctune is closed."
        )
        keep = box.addButton("Keep the settings", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Revert now", QMessageBox.ButtonRole.DestructiveRole)
        let = box.addButton(f"Let it revert in {left:.0f} s", QMessageBox.ButtonRole.RejectRole)
        stay = box.addButton("Don't close", QMessageBox.ButtonRole.NoRole)
        box.setDefaultButton(stay)
        self._close_question = box

        def answered(button: object) -> None:
            self._close_question = None
            if button is stay:
                return
            if button is let:
                self._close_question = box  # asked: close without asking again
                self.close()
                return
            signal = self.tuning.confirmed if button is keep else self.tuning.reverted
            self._close_question = box

            def done(_session_id: str) -> None:
                signal.disconnect(done)
                self.close()

            signal.connect(done)
            (self.tuning.confirm if button is keep else self.tuning.revert)()

        box.buttonClicked.connect(answered)
        box.open()

    def close_quietly(self) -> None:
        """Close without a question (SIGTERM, SIGHUP: no one may be there to answer): running
        work stops as on Close; tuning armed on the Pi is left to its guard."""
        self._quietly = True
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop running work first: iperf3 on both sides, and tuning (the flow reverts)."""
        self.settings.save_window_state(self.saveGeometry(), self.saveState())
        if not self.ready:  # closed while starting: nothing runs yet
            event.accept()
            return
        # The flow's own trial is not asked about: stopping the flow reverts it.
        flow = self.state.model.flow_running
        quiet = getattr(self, "_quietly", False)
        left = None if self._closing or flow or quiet else self.tuning.guard_left()
        if left is not None and self._close_question is None:
            event.ignore()  # asked first, even when the link is gone: the guard still runs
            self._ask_close_while_armed(left)
            return
        if self._closing or (not self.runner.running and self.state.session is None):
            event.accept()
            return
        event.ignore()
        self._closing = True
        self.statusBar().showMessage("Stopping running work and closing the connection…")

        async def shutdown() -> None:
            try:
                await self.runner.shutdown()
                await self.connection.close_session()
            finally:
                self.close()

        # Held here, not by the runner: the runner's shutdown cancels what it holds.
        import asyncio

        self._shutdown_task = asyncio.get_event_loop().create_task(shutdown())
