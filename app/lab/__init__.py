"""The virtual Pi lab: a Raspberry Pi look-alike reached over real SSH (Linux, root).

    >>> from sbctune import lab
    >>> info = lab.up("pi4-ax88179", name="demo")   # LabInfo: host, port, user, password, nics
    >>> lab.status("demo").state
    'running'
    >>> lab.down("demo")

See ``manager`` for how a lab is built, ``teardown`` for how it goes, and ``profile`` for the
lab.toml format.
"""

from sbctune.lab.errors import LabError, ProfileError
from sbctune.lab.lab_status import list_labs, status
from sbctune.lab.manager import up
from sbctune.lab.model import LabInfo, LabStatus, NicInfo
from sbctune.lab.profile import LabProfile, find_profile, load_profile, shipped_profiles
from sbctune.lab.sysctls import lab_private_sysctls
from sbctune.lab.teardown import down, down_all

__all__ = [
    "LabError",
    "LabInfo",
    "LabProfile",
    "LabStatus",
    "NicInfo",
    "ProfileError",
    "down",
    "down_all",
    "find_profile",
    "lab_private_sysctls",
    "list_labs",
    "load_profile",
    "shipped_profiles",
    "status",
    "up",
]
