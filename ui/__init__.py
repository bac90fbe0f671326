"""The desktop GUI (PySide6 + qasync). Imports the core; the core never imports this."""
