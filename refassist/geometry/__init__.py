"""Geometry of maps, with no game in it: hexes, routes, sector files.

* `hexmap` - Traveller hex geometry (coordinates, distances, neighbours);
* `hexcache` - the same answers remembered (a large game asks hundreds of thousands of times);
* `routegraph` - searches over places joined by routes of a length;
* `sectors` - sector files (T5 tab, T5 columns, legacy .sec, XML) and the generator.

May import: `refassist.errors` and the text layer.  Drawing a map is `refassist.drawings`.
"""
