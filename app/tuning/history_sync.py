"""The history's copy of each tuning session (TuningSessionRecord: state + the record)."""

from __future__ import annotations

import datetime as dt
import logging
from typing import TYPE_CHECKING, Any

from sbctune.history import History, HistoryError, TuningSessionRecord

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

log = logging.getLogger(__name__)


def save(history: History | None, session: Session, state: str, data: dict[str, Any]) -> int | None:
    """Add or update the history row of the session `data` describes; its row id."""
    if history is None:
        return None
    device = history.add_device(session.target.host, session.target.port, session.username)
    assert device.id is not None
    existing = next(
        (r for r in history.tuning_sessions(device.id) if r.data.get("id") == data["id"]), None
    )
    record = TuningSessionRecord(
        device_id=device.id,
        started_at=dt.datetime.fromisoformat(str(data["created"])),
        state=state,
        data=data,
        id=existing.id if existing else None,
    )
    return history.save_tuning_session(record)


def mark(history: History | None, session: Session, session_id: str, state: str) -> None:
    """The history's state of a session follows the Pi's. The Pi's state is the truth: a
    history that cannot take it (busy, a damaged record) is told about, never fatal."""
    if history is None:
        return
    try:
        device = history.device_for(session.target.host, session.target.port, session.username)
        if device is None or device.id is None:
            return
        for record in history.tuning_sessions(device.id):
            if record.data.get("id") == session_id and record.state != state:
                record.state = state
                history.save_tuning_session(record)
    except HistoryError as exc:
        log.warning("sbctune: the history's copy of session %s is not updated: %s",
                    session_id, exc.message)  # fmt: skip
