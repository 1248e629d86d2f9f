#!/bin/sh
# A dump of the site's PostgreSQL database (custom format: pg_restore reads it), kept BACKUP_KEEP days.
# Run by cartes-backup.timer; by hand: `sudo -u cartes deploy/backup.sh`. Restore: docs/operations.md.
set -eu
: "${DATABASE_URL:?DATABASE_URL is not set (the site's /etc/cartes/cartes.env)}"
BACKUP_DIR=${BACKUP_DIR:-/srv/cartes/var/backups}
BACKUP_KEEP=${BACKUP_KEEP:-14}
mkdir -p "$BACKUP_DIR"
target="$BACKUP_DIR/cartes-$(date -u +%Y%m%dT%H%M%SZ).dump"
pg_dump --format=custom --no-owner --file="$target.part" "$DATABASE_URL"
mv "$target.part" "$target"   # a dump cut short never looks like a whole one
find "$BACKUP_DIR" -name 'cartes-*.dump' -mtime +"$BACKUP_KEEP" -delete
echo "$target"
