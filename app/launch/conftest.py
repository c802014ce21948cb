# The templates in files/ are the user's files, written for the frameworks' environments (torch, …): not this
# package's modules, so pytest's doctest collection leaves them alone (tests/launch/ checks them as text).
collect_ignore = ["files"]
