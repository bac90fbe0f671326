"""Step 1, Connect: host, port, user, key / agent / password; progress and inline errors."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QSpinBox,
    QWidget,
)

from sbctune.ui.controllers.connect_request import ConnectRequest
from sbctune.ui.pages.base import Page
from sbctune.ui.pages.connect_parts import focus_to_fix
from sbctune.ui.pages.find_card import FindCard
from sbctune.ui.settings import AppSettings
from sbctune.ui.tasks import TaskRunner
from sbctune.ui.widgets.common import Card, ProblemPanel, label, label_reaches, narrow_combo
from sbctune.ui.widgets.pinned_footer import PinnedFooter, stacked

# Made first at start-up, before the core (SSH, the one-click flow) is imported: the user types
# while the rest loads (issue 22); its controllers come with `attach`.
if TYPE_CHECKING:
    from sbctune.ui.controllers.connection import ConnectionController
    from sbctune.ui.controllers.finding import FindController
    from sbctune.workflow import ConnectedInfo, Problem


class ConnectPage(Page):
    title = "1 · Connect to your Pi"
    intro = (
        "sbctune logs in to the Pi over SSH. Give its name or IP address and how to log in. "
        "SSH must be enabled on the Pi (Raspberry Pi Imager's settings, or raspi-config)."
    )
    connected = Signal(object)  # ConnectedInfo

    def __init__(
        self,
        controller: ConnectionController | None,
        settings: AppSettings,
        runner: TaskRunner,
        finder: FindController | None = None,
    ) -> None:
        """`controller` None: the page alone (the app's start-up); `attach` gives it its
        controllers once they are imported."""
        super().__init__()
        self._controller = controller
        self.finder = finder
        self._settings = settings
        self._runner = runner
        self._waiting: str | None = None  # "connect" or "find", pressed before `attach`
        card = Card("The Pi")
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.host = narrow_combo(QComboBox())
        self.host.setEditable(True)
        self.host.setObjectName("host")
        host_edit = self.host.lineEdit()
        assert host_edit is not None
        host_edit.setPlaceholderText("raspberrypi.local or 192.168.1.20")
        self.port = QSpinBox()
        self.port.setRange(1, 65535)
        self.port.setValue(22)
        self.port.setMaximumWidth(110)
        self.user = QLineEdit()
        self.user.setPlaceholderText("the user you created in Raspberry Pi Imager, e.g. pi")
        # A widget, not a bare layout, in the form row: only a widget gets the label's "&I".
        host_field = QWidget()
        host_field.setFocusProxy(self.host)
        host_row = QHBoxLayout(host_field)
        host_row.setContentsMargins(0, 0, 0, 0)
        host_row.addWidget(self.host, 1)
        # The port beside the host (one row fewer: the page fits at 150 %, walk ux30).
        port_label = QLabel("P&ort:")
        port_label.setBuddy(self.port)
        host_row.addWidget(port_label)
        host_row.addWidget(self.port)
        self.find_button = QPushButton("Fin&d my Pi")
        self.find_button.setToolTip(
            "Look for Raspberry Pis on this network (mDNS: what Raspberry Pi OS announces)"
        )
        self.find_button.clicked.connect(self._find)
        host_row.addWidget(self.find_button)
        form.addRow("Host or &IP:", host_field)
        label_reaches(form, host_field, self.host)  # Alt+I: the container cannot take focus
        form.addRow("&User:", self.user)
        card.body.addLayout(form)

        self.find_card = FindCard()
        self.find_card.picked.connect(self._use_found)
        auth_card = self._auth_card()

        actions = self._actions()

        # Pinned under the page, not in it: showing an error moves no field (walk 14); Connect
        # below it stays in view (walk 15: at 150 % the error covered it) and in its place
        # (walk19: under it, a longer error moved Connect up).
        self.problem = ProblemPanel(scrolls=False)
        self.problem.setObjectName("card")
        self._pinned = PinnedFooter(self, stacked(actions, self.problem))
        self.notice = label(name="muted")
        self.notice.hide()
        for widget in (card, self.find_card, auth_card):
            self.content.addWidget(widget)
        self.content.addWidget(self.notice)
        self.content.addStretch(1)

        # Enter in a field connects (a main window has no default button as dialogs do).
        for field in (host_edit, self.port.lineEdit(), self.user, self.password, self.key_file):
            field.returnPressed.connect(self._enter)
        for first, second in zip(self._focus_order(), self._focus_order()[1:], strict=False):
            QWidget.setTabOrder(first, second)

        self._describe()
        self._restore()
        self._auth_changed()
        if controller is not None:
            self.attach(controller, finder)

    @property
    def controller(self) -> ConnectionController:
        if self._controller is None:
            raise RuntimeError("the Connect page has no controller yet")
        return self._controller

    def attach(self, controller: ConnectionController, finder: FindController | None) -> None:
        """The controllers, once imported: the saved devices and a saved password are filled
        in (never over what the user typed meanwhile), and a Connect or Find pressed before
        goes on now."""
        self._controller = controller
        self.finder = finder
        self._listen(controller, finder)
        self.reload_devices()
        if not self.password.text():
            self._fill_password(keep_typed=True)
        waiting, self._waiting = self._waiting, None
        if waiting == "connect":
            self._busy(False)
            self._connect()
        elif waiting == "find":
            self._find_busy(False)
            self._find()

    def _actions(self) -> QHBoxLayout:
        """Connect / Cancel, and what the connection is doing."""
        actions = QHBoxLayout()
        self.connect_button = QPushButton("Connect")
        self.connect_button.setObjectName("primary")
        self.connect_button.setDefault(True)
        self.connect_button.clicked.connect(self._connect)
        self.cancel_button = QPushButton("&Cancel")
        self.cancel_button.clicked.connect(self._cancel)
        self.cancel_button.hide()
        # Escape stops a connection under way, as in a dialog (walk ux29: it did nothing, and
        # a time-out to an address nobody answers takes ~20 s); only while one is under way.
        self._escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        self._escape.setContext(Qt.ShortcutContext.WindowShortcut)
        self._escape.activated.connect(self._cancel)
        self._escape.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(160)
        self.progress.hide()
        self.status = label(name="muted")
        actions.addWidget(self.connect_button)
        actions.addWidget(self.cancel_button)
        actions.addWidget(self.progress)
        actions.addWidget(self.status, 1)
        return actions

    def _listen(self, controller: ConnectionController, finder: FindController | None) -> None:
        controller.busy.connect(self._busy)
        controller.progress.connect(self.status.setText)
        controller.failed.connect(self._failed)
        controller.connected.connect(self._connected)
        controller.notice.connect(self._notice)
        self.host.activated.connect(self._pick_saved)
        if finder is not None:
            finder.busy.connect(self._find_busy)
            finder.found.connect(self.find_card.found)
            finder.failed.connect(self.find_card.failed)
        else:
            self.find_button.hide()

    def _auth_card(self) -> Card:
        """Password (optionally kept in the keyring) or an SSH key / the agent."""
        auth_card = Card("How to log in")
        self.use_password = QRadioButton("&Password")
        self.use_key = QRadioButton("SSH &key or agent")
        group = QButtonGroup(self)
        group.addButton(self.use_password)
        group.addButton(self.use_key)
        self.use_password.setChecked(True)
        # The choice in the card's title row and the keyring box beside the password: two
        # rows fewer, so that at 150 % on 1366 x 768 every field and an error under the page
        # fit without a scroll bar (walk ux30: Key file and the keyring box were cut).
        auth_card.title.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        auth_card.header.setStretch(0, 0)
        auth_card.header.addSpacing(12)
        auth_card.header.addWidget(self.use_password)
        auth_card.header.addWidget(self.use_key)
        auth_card.header.addStretch(1)
        auth_form = QFormLayout()
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setObjectName("password")
        self.remember = QCheckBox("Save in this computer's keyring")
        self.remember.setToolTip("Off by default: the password is otherwise kept in memory only.")
        self.key_file = QLineEdit()
        self.key_file.setPlaceholderText("empty: the SSH agent and the keys in ~/.ssh")
        browse = QPushButton("&Browse…")
        browse.clicked.connect(self._browse_key)
        self._browse_button = browse
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_file, 1)
        key_row.addWidget(browse)
        self._key_row = QWidget()
        self._key_row.setLayout(key_row)
        key_row.setContentsMargins(0, 0, 0, 0)
        password_field = QWidget()
        password_field.setFocusProxy(self.password)
        password_row = QHBoxLayout(password_field)
        password_row.setContentsMargins(0, 0, 0, 0)
        password_row.addWidget(self.password, 1)
        password_row.addWidget(self.remember)
        auth_form.addRow("Pass&word:", password_field)
        label_reaches(auth_form, password_field, self.password)
        auth_form.addRow("Key fil&e:", self._key_row)
        auth_card.body.addLayout(auth_form)
        self.use_password.toggled.connect(self._auth_changed)
        return auth_card

    def _describe(self) -> None:
        """Names and descriptions a screen reader says (the visible labels lack context)."""
        for widget, name, text in (
            (self.host, "Host or IP address of the Pi", "raspberrypi.local or an IP address"),
            (self.port, "SSH port", "22 unless the Pi's sshd was moved"),
            (self.user, "User name on the Pi", "the user made in Raspberry Pi Imager"),
            (self.find_button, "Find my Pi", "lists the Raspberry Pis on this network"),
            (self.use_password, "Log in with a password", ""),
            (self.use_key, "Log in with an SSH key or the agent", ""),
            (self.password, "Password", "kept in memory only unless saved in the keyring"),
            (self.remember, "Save the password in the keyring", ""),
            (self.key_file, "Private key file", "empty: the SSH agent and keys in ~/.ssh"),
            (self._browse_button, "Browse for a key file", ""),
            (self.connect_button, "Connect", "log in to the Pi over SSH"),
            (self.cancel_button, "Cancel connecting", ""),
        ):
            widget.setAccessibleName(name)
            if text:
                widget.setAccessibleDescription(text)

    # ------------------------------------------------------------------ find my Pi
    def _find(self) -> None:
        if self._controller is None:  # starting: looks once the controllers are there
            self._waiting = "find"
            self.find_card.show()
            self._find_busy(True)
            return
        if self.finder is None:
            return
        self.find_card.show()
        self.find_card.found_list.clear()
        self.finder.find(scan=self.find_card.scan.isChecked())

    def _find_busy(self, busy: bool) -> None:
        self.find_button.setEnabled(not busy)
        self.find_card.busy(busy)

    def _use_found(self, address: str) -> None:
        self.host.setEditText(address)
        self.user.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------------ form
    def _restore(self) -> None:
        last = self._settings.last_connection()
        self.reload_devices()
        if last["host"]:
            self.host.setEditText(last["host"])
        if last["port"].isascii() and last["port"].isdigit():
            self.port.setValue(int(last["port"]))
        self.user.setText(last["user"])
        self.use_key.setChecked(last["auth"] == "key")
        self.key_file.setText(last["key_file"])

    def reload_devices(self) -> None:
        if self._controller is None:  # starting: filled in by `attach`
            return
        current = self.host.currentText()
        self.host.clear()
        for device in self.controller.saved_devices():
            self.host.addItem(f"{device.user}@{device.host}:{device.port}", device.id)
        self.host.setEditText(current)

    def fill(self, host: str, port: int, user: str) -> None:
        """Pre-fill from a saved device (Devices page)."""
        self.host.setEditText(host)
        self.port.setValue(port)
        self.user.setText(user)
        self._fill_password()

    def _pick_saved(self, index: int) -> None:
        device_id = self.host.itemData(index)
        if isinstance(device_id, int):
            device = self.controller.saved_device(device_id)
            self.fill(device.host, device.port, device.user)

    def _fill_password(self, *, keep_typed: bool = False) -> None:
        """The password saved in the keyring for the form's Pi; `keep_typed`: not over one the
        user typed meanwhile."""
        if self._controller is None:  # starting: `attach` fills it
            return

        async def fill() -> None:
            remembered = await self.controller.remembered_password(
                self.host.currentText(), self.port.value(), self.user.text()
            )
            if remembered and not (keep_typed and self.password.text()):
                self.password.setText(remembered)
                self.remember.setChecked(True)

        self._runner.start(fill(), name="keyring-load")

    def _auth_changed(self) -> None:
        password = self.use_password.isChecked()
        self.password.setEnabled(password)
        self.remember.setEnabled(password)
        self._key_row.setEnabled(not password)

    def _browse_key(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose your private SSH key")
        if path:
            self.key_file.setText(path)

    def request(self) -> ConnectRequest:
        return ConnectRequest(
            host=self.host.currentText().strip(),
            port=self.port.value(),
            user=self.user.text().strip(),
            auth="password" if self.use_password.isChecked() else "key",
            key_file=self.key_file.text(),
            password=self.password.text(),
            remember=self.remember.isChecked(),
        )

    def _focus_order(self) -> list[QWidget]:
        return [
            self.host,
            self.port,
            self.user,
            # The password right after the user (most log in so); the choice of how to log in
            # after it, then the key file it enables.
            self.password,
            self.remember,
            self.use_password,
            self.use_key,
            self.key_file,
            self._browse_button,
            self.connect_button,
            # Last: typing the form goes host, port, user; Find is Alt+D from anywhere.
            self.find_button,
        ]

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter on the form's choices connects, as in its fields: a keyboard user who tabbed
        to "Password" / "SSH key or agent" or the keyring box and pressed Enter got nothing
        (walk 27). Fields connect through their own returnPressed, and a push button with the
        focus takes Enter itself, so only the choices are handled here."""
        choices = (self.use_password, self.use_key, self.remember)
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and any(choice.hasFocus() for choice in choices):
            event.accept()
            self._enter()
            return
        super().keyPressEvent(event)

    # ------------------------------------------------------------------ actions
    def _enter(self) -> None:
        if self.connect_button.isEnabled():
            self._connect()

    def _connect(self) -> None:
        self.problem.clear()
        self.notice.hide()
        if self._controller is None:  # starting: connects once the controllers are there
            self._waiting = "connect"
            self._busy(True)
            self.status.setText("Starting…")
            return
        self.controller.connect_to(self.request())

    def _cancel(self) -> None:
        if self._controller is None:
            self._waiting = None
            self._busy(False)
            self.status.setText("")
            return
        self._controller.cancel()

    def _busy(self, busy: bool) -> None:
        self.connect_button.setEnabled(not busy)
        self.cancel_button.setVisible(busy)
        self._escape.setEnabled(busy)
        self.progress.setVisible(busy)
        for widget in (self.host, self.port, self.user, self.password, self.key_file):
            widget.setEnabled(not busy)
        if not busy:
            self._auth_changed()

    def _failed(self, problem: Problem) -> None:
        self.status.setText(
            "Connection stopped: the host key changed." if problem.hard_stop else ""
        )
        self.problem.show_problem(problem.message, problem.hint)
        # Where the user types next, once the fields are enabled again.
        QTimer.singleShot(0, lambda: self._focus_field(problem.field))

    def _focus_field(self, field: str) -> None:
        use_password = self.use_password.isChecked()
        focus_to_fix(field, self.host, self.password, self.key_file, password=use_password)

    def _notice(self, text: str) -> None:
        self.notice.setText(text)
        self.notice.show()

    def _connected(self, info: ConnectedInfo) -> None:
        sudo = {
            "root": "logged in as root",
            "passwordless": "sudo works without a password",
            "password": "sudo works with the password" if info.sudo_ok else "sudo REFUSED",
        }.get(info.sudo, info.sudo)
        self.status.setText(f"Connected to {info.hostname} ({info.kernel}) as {info.user}; {sudo}.")
        if info.sudo == "password" and not info.sudo_ok:
            self.problem.show_problem(
                "Logged in, but sudo did not accept the password.",
                "Inspecting and measuring work without sudo; tuning needs it. Check that this "
                "user may use sudo (`groups` on the Pi lists 'sudo').",
            )
        request = self.request()
        # "pi@host" typed in the host field is remembered as its parts (walk 26: the app opened
        # again with "pi@198.18.4.2" as the host and the focus on an empty User field, where
        # a name typed would be ignored, the host field's winning)
        user, at, host = request.host.rpartition("@")
        self._settings.remember_connection(
            {
                "host": host if at else request.host,
                "port": str(request.port),
                "user": (user or info.user) if at else request.user,
                "auth": request.auth,
                "key_file": request.key_file,
            }
        )
        self.reload_devices()
        self.connected.emit(info)

    def focus_first(self) -> None:
        """Focus where the user types next: the first empty field of the form (a remembered
        host and user leave the password), else Connect."""
        password = self.use_password.isChecked()
        for field, empty in (
            (self.host, not self.host.currentText().strip()),
            (self.user, not self.user.text().strip()),
            (self.password, password and not self.password.text()),
        ):
            if empty:
                field.setFocus(Qt.FocusReason.OtherFocusReason)
                return
        self.connect_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def shown(self) -> None:
        focused = self.focusWidget()
        if focused is None or not self.isAncestorOf(focused):
            self.focus_first()
