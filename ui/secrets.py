"""The optional "remember password" in the OS keyring (only when the user ticks it).

keyring may talk to D-Bus or the Windows credential store, which can block: every call runs
in a worker thread. A missing or locked keyring is reported, never fatal.
"""

from __future__ import annotations

import asyncio

SERVICE = "sbctune"


def _account(user: str, host: str, port: int) -> str:
    return f"{user}@{host}:{port}"


def _get(account: str) -> str | None:
    import keyring

    try:
        return keyring.get_password(SERVICE, account)
    except Exception:  # any backend failure means "nothing remembered"
        return None


def _set(account: str, password: str) -> str | None:
    import keyring

    try:
        keyring.set_password(SERVICE, account, password)
    except Exception as exc:  # the keyring refused; tell the user, keep the session
        return f"The password could not be saved in the system keyring ({type(exc).__name__})."
    return None


def _delete(account: str) -> None:
    import keyring

    try:
        keyring.delete_password(SERVICE, account)
    except Exception:  # not there, or no keyring: nothing to forget
        return


async def load_password(user: str, host: str, port: int) -> str | None:
    return await asyncio.to_thread(_get, _account(user, host, port))


async def save_password(user: str, host: str, port: int, password: str) -> str | None:
    """Returns a message when the keyring could not store it."""
    return await asyncio.to_thread(_set, _account(user, host, port), password)


async def forget_password(user: str, host: str, port: int) -> None:
    await asyncio.to_thread(_delete, _account(user, host, port))
