"""Persistence, in one place: the schema, its migrations, and every write.

Every write is one short ``BEGIN IMMEDIATE`` transaction that re-validates the
whole session record with the domain before it commits, so the database never
holds a hand the rules refuse, and balances (always computed from the hands,
never stored) can never disagree with them. Every change bumps the session's
``version`` and is kept in ``history``.

The package's modules, in the order they build on each other: ``common`` (errors,
time stamps, ids), ``schema`` (migrations, connections, transactions), ``agreement``
(the players' OKs), ``reads`` (sessions as read: decoded, listed, their history),
``changes`` (every change: created, saved, edited, deleted, undone), ``drafts``
(the hand in progress), ``backups`` (snapshots and restore), ``pins`` (the table PIN),
``circles`` (circles, their members, the sessions they hold and who sat where),
``nights`` (club nights: their players, rounds, tables and byes), ``night_results``
(each night table's result kept by its session's version).
Everything is used as ``store.<name>``.
"""

from __future__ import annotations

from ..limits import MAX_HANDS  # noqa: F401
from .common import (  # noqa: F401
    StaleEdit,
    NotFound,
    EveningSettled,
    settled_question,
    RateLimited,
    StorageFull,
    Refused,
    now,
    new_token,
    TOKEN,
    is_token,
    id_label,
    printable,
    CREATION_WINDOW,
    PIN_HASH,
    PIN_METHOD,
    is_pin_hash,
)
from . import live_changes  # noqa: F401
from .schema import (  # noqa: F401
    migrations,
    connect,
    connect_keeper,
    initialise,
    leave_checkpoints,
    writing,
    reading,
)
from .recent import Changed, ChangedSince, newest_change, changed_lately, changed_after, database_answers  # noqa: F401
from .reads import (  # noqa: F401
    Session,
    PLAYERS,
    _Hands,
    _HANDS,
    keep_hands,
    texts_kept,
    get_session,
    get_session_by_watch_id,
    live_key,
    live_version,
    session_version,
    Summary,
    sessions_by_ids,
    same_session,
    history,
    last_change,
    taken_back,
    DRAFT_ACTIONS,
    hands_at,
    session_by_seat_link,
)
from .changes import (  # noqa: F401
    set_scorer,
    insert_seats,
    note_problems,
    limit_problems,
    count_attempt,
    create_session,
    insert_hands,
    log_change,
    change_within,
    refuse_stale,
    add_hand,
    replace_hand,
    delete_last_hand,
    undo,
    UNDOABLE,
    undoable,
    go_back,
    UNDO_WINDOW,
    TOO_OLD_TO_UNDO,
    within_undo_window,
)
from .expiry import expire, expire_circles, unused_circles, untouched_since  # noqa: F401
from .drafts import (  # noqa: F401
    Draft,
    StaleDraft,
    get_draft,
    draft_version,
    keep_draft,
    same_answer,
    discard_draft,
    saved_from,
)
from .agreement import (  # noqa: F401
    Verdict,
    Agreement,
    without_agreement,
    fingerprint,
    agreement,
    StaleVerdict,
    give_verdict,
    seat_links,
    session_id_of,
)
from .backups import (  # noqa: F401
    all_session_ids,
    snapshot,
    full_snapshot,
    BACKUP_KEYS,
    OPTIONAL_BACKUP_KEYS,
    VERDICT_KEYS,
    FINGERPRINT,
    MAX_STAMP,
    backup_problems,
    in_progress_problems,
    readable_in_progress,
    restore_all,
)
from .pins import (  # noqa: F401
    PIN_TRIES,
    PIN_WINDOW,
    SESSION_PIN_TRIES,
    SESSION_PIN_WINDOW,
    PinTry,
    reserve_pin_try,
    forget_pin_try,
)
from .circles import (  # noqa: F401
    Circle,
    Member,
    Seat,
    Evening,
    EveningLink,
    MAX_CIRCLE_NAME,
    MAX_MEMBERS,
    create_circle,
    get_circle,
    get_circle_by_watch_id,
    circle_version,
    circles_by_ids,
    seats_of,
    circle_of_session,
    evenings,
    session_versions,
    evening_links,
    add_member,
    rename_member,
    merge_members,
    seat_members_problems,
    attach_session,
    detach_session,
    set_circle_pin,
    likely_members,
    members_problems,
    circle_name_problem,
)
from .circle_backups import (  # noqa: F401
    is_circle_backup,
    circle_snapshot,
    all_circle_ids,
    circle_backup_problems,
)
from .payments import (  # noqa: F401
    Payment,
    Due,
    Paying,
    paying,
    amount_of,
    payments,
    payment_for,
    get_payment,
    open_evening_ids,
    closed_evenings,
    record_payment,
    undo_payment,
    close_evenings,
    reopen_evening,
)
from .nights import (  # noqa: F401
    Night,
    NightPlayer,
    NightRound,
    NightTable,
    RANK_BY,
    create_night,
    get_night,
    get_night_by_watch_id,
    night_live_key,
    nights_by_ids,
    nights_of_circle,
    draw_round,
    drawn_round,
    redraw_round,
    swap_players,
    add_player,
    drop_player,
    set_round_end,
    set_rank_by,
    set_night_pin,
    players_problems,
    night_name_problem,
    rename_night,
    delete_night,
    TableOfNight,
    night_table_of,
    night_version,
)
from .night_archive import (  # noqa: F401
    FORMAT as NIGHT_FORMAT,
    night_data,
    night_text,
    is_night_document,
    night_problems,
    import_night,
    CircleNightImport,
    import_circle_night,
    same_circle_night,
    attach_night,
)
from .night_backups import (  # noqa: F401
    is_night_backup,
    night_snapshot,
    all_night_ids,
    night_backup_problems,
)
from .kept_figures import (  # noqa: F401
    EveningVersion,
    EveningsState,
    KeptRow,
    evening_versions,
    evenings_state,
    kept_rows_of,
    kept_rows_of_circle,
    keep_rows,
    kept_code,
    rules_code,
    encode as encode_figures,
    decode as decode_figures,
)
from .circle_archive import (  # noqa: F401
    FORMAT as CIRCLE_FORMAT,
    archive_data,
    archive,
    archive_problems,
    import_archive,
)
from .settled import (  # noqa: F401
    SettledEvening,
    settled_evening,
    settled_together,
    settled_or_reopened,
    reopen_settled,
)
from .night_results import KeptResult, kept_results, keep_results, forget_results  # noqa: F401
