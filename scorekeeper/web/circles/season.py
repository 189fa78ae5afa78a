"""A circle's season pages, under both links: the ledger (each evening, the running
totals and their charts) and the statistics (each member's figures, ratings, head to
head). Figures that add up evenings are in money per currency (``circle_figures``);
each page's figures are rendered once per season and link and kept (``cached_page``)."""

from __future__ import annotations

from flask import make_response, render_template, request
from markupsafe import Markup

from ... import store
from ...club.ratings import played, ratings
from ...db import get_db
from ...printing.chart import SCREEN_TYPE, balance_chart_svg, bars_svg
from ...rules import BOOKS
from ...rules.season import unit_of
from ...rules.statistics import STATISTICS
from ...words.wording import evening_names, in_units, statistic_text, unit_words
from ..circle_figures import PAGES, filter_of, money_of, season_of
from ..htmx import is_fragment_request
from .links import CircleView, on_circle_links
from .page import who_in


def season_context(view: CircleView, chosen=(None, None, None)) -> dict:
    """What the season's pages say. Figures that add up evenings are in money per currency
    (``money``: ``rules.season.in_money``; counters only for evenings without a stake):
    ``nets(p, field)`` says a member's ``Net`` field (total, best, worst, average) per unit;
    ``shown(p, statistic)`` a member's value of each of ``statistics`` (``rules/statistics.py``)."""
    db, circle = get_db(), view.circle
    season, key = season_of(db, circle, chosen)
    money = money_of(season, key)
    who = who_in(circle)

    def nets(player: str, field: str) -> str:
        return in_units(
            {u: getattr(n, field) for u, n in money.stats[player].items()}, money.units, nearest=field == "average"
        )

    def phase_net(player: str, phase: str) -> str:
        return in_units({u: n.phases[phase] for u, n in money.stats[player].items() if phase in n.phases}, money.units)

    def shown(player: str, statistic) -> str:
        return statistic_text(statistic, season.stats[player], money.stats[player], money.units)

    def pair_net(a: str, b: str) -> str:
        return in_units(money.head_to_head[a][b], money.units)

    def unit_name(unit) -> str:
        return unit_words(unit, money.units)

    def links() -> dict:
        return {e.session_id: view.evening_url(e.session_id, e.watch_id) for e in store.evening_links(db, circle.id)}

    def named() -> dict:
        return evening_names(store.evening_links(db, circle.id))

    return {
        "view": view,
        "circle": circle,
        "season": season,
        "who": who,
        "books": BOOKS,
        "links": links,
        "evening_names": named,
        "chosen": dict(zip(("since", "until", "rulebook"), chosen)),
        "cache_key": key,
        "phase_names": phase_names,
        "money": money,
        "nets": nets,
        "phase_net": phase_net,
        "pair_net": pair_net,
        "unit_name": unit_name,
        "statistics": STATISTICS.shown(),
        "shown": shown,
    }


def phase_names(season) -> list:
    """Every phase any member has a net in, in the order first met."""
    seen = {}
    for stats in season.stats.values():
        for phase in stats.phases:
            seen.setdefault(phase, None)
    return list(seen)


def cached_page(template: str, fragment: str, context: dict, extra=()):
    """A season page: its figures' part (``fragment``) rendered once per (season,
    link) and kept by the versions it comes from; the page around it (flashed
    lines, the filter as chosen) rendered each time. An htmx request gets the part."""
    view = context["view"]
    key = (context["cache_key"], fragment, view.kind, *extra)
    html = PAGES.get(
        key,
        lambda: render_template(
            fragment, **dict(context, links=context["links"](), evening_names=context["evening_names"]())
        ),
    )
    if not is_fragment_request():
        html = render_template(template, part=Markup(html), **context)
    response = make_response(html)
    response.headers.add("Vary", "HX-Request")
    return response


@on_circle_links("/ledger")
def ledger(view):
    chosen = filter_of(request.args)
    context = season_context(view, chosen)
    season, who, money = context["season"], context["who"], context["money"]
    show_all = request.args.get("all") == "1"
    first = 0 if show_all else max(0, len(season.evenings) - LEDGER_ROWS)

    def chart(unit):
        """The running totals of the evenings in one currency (or without a stake): never two added."""
        running = [row for e, row in zip(season.evenings, money.running) if unit_of(e) == unit]
        return balance_chart_svg(
            [who(p) for p in season.players],
            thinned(running),
            width=380,
            height=260,
            title=f"Running totals, evening by evening, {context['unit_name'](unit)}",
            x_label="evening",
            unit=unit,
            font=SCREEN_TYPE,
        )

    context.update(chart=chart, first=first, unit_of=unit_of, rows=list(zip(season.evenings, money.running))[first:])
    return cached_page("circle_ledger.html", "_circle_ledger.html", context, extra=(first,))


#: Evenings the ledger lists unless all are asked for (the running totals count every one).
LEDGER_ROWS = 100
#: Points a chart line has at most: a phone's chart is 380 px wide.
CHART_POINTS = 200


def thinned(running) -> list:
    """At most CHART_POINTS of the running totals, evenly chosen, the last always
    (the chart's x is then the evening's place as drawn, not its number)."""
    running = list(running)
    if len(running) <= CHART_POINTS:
        return running
    step = len(running) / CHART_POINTS
    picked = sorted({min(len(running) - 1, int(i * step)) for i in range(CHART_POINTS)} | {len(running) - 1})
    return [running[i] for i in picked]


@on_circle_links("/stats")
def stats(view):
    context = season_context(view, filter_of(request.args))
    who, money = context["who"], context["money"]
    context["bars"] = lambda unit: bars_svg(
        [(who(p), v) for p, v in money.balances[unit].items()],
        title=f"Each member's net over the season, {context['unit_name'](unit)}",
        unit=unit,
        font=SCREEN_TYPE,
    )
    context["ratings"] = lambda: ranked_ratings(context["season"].evenings)
    return cached_page("circle_stats.html", "_circle_stats.html", context)


def ranked_ratings(evenings) -> list:
    """Each member's rating over the evenings shown (each with a hand saved a three-player free for all,
    in date order), the best first by mu less three sigmas: ``(member key, Rating)``."""
    rated = ratings(played(evenings))
    return sorted(rated.items(), key=lambda item: -item[1].shown)
