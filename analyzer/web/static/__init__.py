"""The page of the web table: HTML, JavaScript, CSS and its CJK web font."""
