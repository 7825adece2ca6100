"""The 掀牛 board: plain JavaScript and CSS served to the page."""
