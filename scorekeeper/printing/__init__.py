"""What is printed: a session's sheet (``sheet``) and a season's (``season_sheet``,
its ledger lines written straight into the PDF by ``ledger_pdf``), the balance chart
both draw (``chart``) and the process that turns them into PDFs beside the server
(``pdf``). Never Flask, the web layer or the server (pyproject.toml's contracts)."""
