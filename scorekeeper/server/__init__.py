"""The app as a running server: waitress behind its door (``serve``, ``door``), Caddy
in front over HTTPS (``front``) and what the app trusts of it (``proxy``), the
server's own host names and headers (``security``), the address phones open (``lan``), the database replicated off the
machine (``replica``), polls answered before Flask (``kept_polls``) and each
process's sessions kept warm (``warm``). Above the web layer: the pages never
import it back (pyproject.toml's contracts)."""
