"""The web page for tournament directors and the JSON API (``bridgelaw serve``).

:func:`engine.web.app.create_app` builds the ASGI app; :mod:`engine.web.forms` turns the form
into a case file and errors back into form fields; :mod:`engine.web.service` does the work
without HTTP; :mod:`engine.web.cli` is the ``serve`` subcommand.
"""
