"""Files in and out: a record someone hands us (``upload``: JSON, or a sheet PDF
read in a child process), the JSON snapshots and backups written and restored
(``backup_files``; the rows they hold are ``store.backups``), and the folders and
files only the server's user may read (``private``)."""
