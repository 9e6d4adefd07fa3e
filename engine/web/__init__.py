"""The web page for tournament directors and the JSON API (``bridgelaw serve``).

:func:`bridgelaw.web.app.create_app` builds the ASGI app; :mod:`bridgelaw.web.forms` turns the form
into a case file and errors back into form fields; :mod:`bridgelaw.web.service` does the work
without HTTP; :mod:`bridgelaw.web.cli` is the ``serve`` subcommand.
"""
