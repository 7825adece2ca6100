"""The dingniu board: plain JavaScript and CSS served to the page."""
