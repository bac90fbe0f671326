"""The optional "remember password" in the OS keyring (only when the user ticks it).

keyring may talk to D-Bus or the Windows credential store, which can block: every call runs
in a worker thread. A missing or locked keyring is reported, never fatal.
"""

from __future__ import annotations

import asyncio

SERVICE = "sbctune"

# The OS keyrings keyring ships (Windows Credential Manager, macOS Keychain, Secret Service,
# KWallet). Anything else found on the machine (keyrings.alt's plaintext or "encrypted" files,
# the null and fail backends) is not the OS keyring, so the password is not saved there.
OS_BACKENDS = (
    "keyring.backends.Windows",
    "keyring.backends.macOS",
    "keyring.backends.SecretService",
    "keyring.backends.libsecret",
    "keyring.backends.kwallet",
)
NO_OS_KEYRING = "The password was not saved: this computer has no system keyring sbctune can use."


def is_os_keyring(backend: object) -> bool:
    """Whether `backend` (keyring.get_keyring()) stores in the OS keyring, and only there."""
    parts = getattr(backend, "backends", None)  # keyring's ChainerBackend: several at once
    if parts is not None:
        return bool(parts) and all(is_os_keyring(part) for part in parts)
    return type(backend).__module__.startswith(OS_BACKENDS)


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

    if not is_os_keyring(keyring.get_keyring()):
        return NO_OS_KEYRING
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
