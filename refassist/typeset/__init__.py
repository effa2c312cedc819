"""The typesetter: our HTML subset in, PDF out.  Its contract: `refassist.typeset.contract`.

* `render` - the jinja2 environment (templates to HTML) and WeasyPrint's layout, both locked
  down; `fetcher` - the only URLs WeasyPrint may load;
* `flow` - chapters, the cover and map pages cut out of the HTML and set with Pango (else
  left to WeasyPrint); `flowhtml` - the HTML subset read, and report.css's rules for it in
  points; `flowpages` - a chapter set on pages (`Chapter`), which puts together `pageitems`
  (items, frames, holes, the page), `blockitems` / `lineitems` / `tableitems` over `itemlist`
  (the HTML made into items), `laidout` (their words laid out once a process), `placing`
  (items placed on pages) and `pagedraw` (a placed page drawn);
  `pango` - Pango's text on cairo; `svgdraw` / `svgpaint` - the engine's SVG on a page;
* `flowdoc` - a report wholly set here, put together without WeasyPrint; `running` - the
  running heads; `pdfappend` - pages and stamps appended to cairo's PDF; `pdfinfo` - the
  title, language, page count; `stamp` - pypdf stamping onto WeasyPrint's layout.

May import: `refassist.drawings.drawing` (units, colours) and the layers below it.  Never the
reports, the store or a game: it knows HTML and CSS, not turns.
"""
