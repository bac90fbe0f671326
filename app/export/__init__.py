"""Exports of runs and reports: CSV, JSON, Markdown, HTML, PNG charts, bundles, Ansible."""
