"""The wizard's pages, one module each. They lay out widgets and forward clicks to controllers
(ui/controllers/); no page imports the history, the SSH layer or the measuring core
(tests/unit/test_gui_pages_talk_to_controllers.py checks it)."""
