"""What every test suite shares: the in-process client, the byte-exact ASGI driver, an HTML index, URLs and
states, and the one-notch moves of every control.  Import as ``from support.urls import lab_path`` (``tests/``
is on the import path of every suite)."""
