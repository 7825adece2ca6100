"""The local web table: game-neutral machinery for every game's ``play`` command.

:mod:`.app` builds the Starlette application from a game's :class:`.game.WebGame`;
:mod:`.sessions` keeps each game in its own session under a random id and drops idle and
finished ones; :mod:`.jobs` runs long computations (advice, queries) in the background with
their progress; :mod:`.i18n` holds the page's words in Chinese and English; :mod:`.server`
serves the app on 127.0.0.1 only. The page is plain HTML, JavaScript and CSS from
``static/``, with its CJK web font, and needs no network.
"""
