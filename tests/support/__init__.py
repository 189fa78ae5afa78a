"""Shared helpers of the test suite (not tests): the worked examples, long
sessions, hypothesis strategies of valid records, and the web helpers that post
what a phone would post (built from the form's field names, not from the app)."""
