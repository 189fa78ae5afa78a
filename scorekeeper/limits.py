"""The app's size limits, in one place: the web import, the store, restore and the
``settle`` / ``sheet`` commands all keep to the same ones. (No imports: the
command line reads these without loading the web app.)

The record format itself (``rules.record``) has no such limits: they are the
app's, about how much work one request or command may ask for.
"""

MAX_RECORD_BYTES = 2 * 1024 * 1024  # a session record file or upload: 2 MB
MAX_HANDS = 1000  # hands in one session
MAX_TITLE = 120  # characters, as the new-session form
MAX_NOTE = 500  # characters in a hand's note, as the hand form
MAX_REASON = 200  # characters in a player's dispute: "I had only two Kings"
# (the calls on one pad are the hand form's own limit: form/answers.py's MAX_CALLS)
