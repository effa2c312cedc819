"""Outlook ``.msg`` files for the tests, written to Microsoft's specifications: the compound
file (MS-CFB, version 3: 512-byte sectors, a 64-byte mini stream for streams under 4096 bytes)
holding a message's property streams as Outlook stores a received message (MS-OXMSG):
transport headers, subject, sender, delivery time, body, one storage per recipient and per
attachment, and the named-property storage.  No library writes ``.msg``; refassist only reads
them (with extract-msg), so the tests make their own."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from datetime import UTC, datetime

SECTOR = 512
MINI = 64
CUTOFF = 4096
FREE, END, FAT_SECTOR, NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF

PT_LONG, PT_SYSTIME, PT_UNICODE, PT_BINARY = 0x0003, 0x0040, 0x001F, 0x0102


@dataclass
class Node:
    """A storage (with children) or a stream (with data) of the compound file."""

    name: str
    data: bytes | None = None  # None: a storage
    children: list[Node] = field(default_factory=list)


def _filetime(when: datetime) -> int:
    return int((when - datetime(1601, 1, 1, tzinfo=UTC)).total_seconds() * 10_000_000)


def _properties(props: list[tuple[int, int, object]], header: bytes) -> tuple[bytes, list[Node]]:
    """The ``__properties_version1.0`` stream and the ``__substg1.0_`` streams of variable
    length values, for (property id, type, value) triples."""
    stream = bytearray(header)
    streams = []
    for prop_id, prop_type, value in props:
        tag = (prop_id << 16) | prop_type
        if prop_type == PT_UNICODE:
            data = str(value).encode("utf-16-le")
            stream += struct.pack("<IIII", tag, 6, len(data) + 2, 0)
            streams.append(Node(f"__substg1.0_{tag:08X}", data))
        elif prop_type == PT_BINARY:
            data = bytes(value)  # type: ignore[arg-type]
            stream += struct.pack("<IIII", tag, 6, len(data), 0)
            streams.append(Node(f"__substg1.0_{tag:08X}", data))
        elif prop_type == PT_SYSTIME:
            stream += struct.pack("<IIQ", tag, 6, _filetime(value))  # type: ignore[arg-type]
        else:
            stream += struct.pack("<IIi4x", tag, 6, int(value))  # type: ignore[call-overload]
    return bytes(stream), streams


def outlook_message(
    *,
    sender: str,
    sender_name: str,
    subject: str,
    delivered: datetime,
    headers: str,
    body: str,
    attachments: list[tuple[str, bytes]],
    to: str = "referee@example.com",
) -> bytes:
    """A received message as Outlook saves it when dragged out of a folder."""
    top = [
        (0x001A, PT_UNICODE, "IPM.Note"),
        (0x0037, PT_UNICODE, subject),
        (0x0C1A, PT_UNICODE, sender_name),
        (0x0C1E, PT_UNICODE, "SMTP"),
        (0x0C1F, PT_UNICODE, sender),
        (0x0E06, PT_SYSTIME, delivered),
        (0x0039, PT_SYSTIME, delivered),
        (0x007D, PT_UNICODE, headers),
        (0x1000, PT_UNICODE, body),
        (0x0E07, PT_LONG, 0x1 | (0x10 if attachments else 0)),  # read, has attachments
    ]
    header = struct.pack("<8xIIII8x", 1, len(attachments), 1, len(attachments))
    stream, substreams = _properties(top, header)
    root = Node("Root Entry", None, [Node("__properties_version1.0", stream), *substreams])
    root.children.append(
        Node(
            "__nameid_version1.0",
            None,
            [
                Node("__substg1.0_00020102", b""),
                Node("__substg1.0_00030102", b""),
                Node("__substg1.0_00040102", b""),
            ],
        )
    )
    recipient = [
        (0x0C15, PT_LONG, 1),  # MAPI_TO
        (0x3001, PT_UNICODE, to),
        (0x3002, PT_UNICODE, "SMTP"),
        (0x3003, PT_UNICODE, to),
        (0x39FE, PT_UNICODE, to),
    ]
    stream, substreams = _properties(recipient, bytes(8))
    root.children.append(
        Node(
            "__recip_version1.0_#00000000",
            None,
            [Node("__properties_version1.0", stream), *substreams],
        )
    )
    for number, (name, data) in enumerate(attachments):
        extension = "." + name.rsplit(".", 1)[-1] if "." in name else ""
        props = [
            (0x3705, PT_LONG, 1),  # ATTACH_BY_VALUE
            (0x3001, PT_UNICODE, name),
            (0x3704, PT_UNICODE, name[:8] + extension),
            (0x3707, PT_UNICODE, name),
            (0x3703, PT_UNICODE, extension),
            (0x370B, PT_LONG, -1),
            (0x3701, PT_BINARY, data),
        ]
        stream, substreams = _properties(props, bytes(8))
        root.children.append(
            Node(
                f"__attach_version1.0_#{number:08X}",
                None,
                [Node("__properties_version1.0", stream), *substreams],
            )
        )
    return compound_file(root)


# -- the compound file -----------------------------------------------------------------------


def _sort_key(node: Node) -> tuple[int, str]:
    """The order siblings are compared in (MS-CFB 2.6.4): name length, then upper case."""
    return (len(node.name), node.name.upper())


def compound_file(root: Node) -> bytes:
    """A version 3 compound file of the tree under ``root``."""
    entries: list[Node] = []

    def number(node: Node) -> None:
        entries.append(node)
        for child in node.children:
            number(child)

    number(root)
    ids = {id(node): n for n, node in enumerate(entries)}

    # Small streams go into the mini stream, large ones into sectors of their own.
    mini = bytearray()
    mini_fat: list[int] = []
    starts: dict[int, int] = {}
    large: list[Node] = []
    for node in entries[1:]:
        if node.data is None:
            continue
        if len(node.data) >= CUTOFF:
            large.append(node)
            continue
        if not node.data:
            starts[id(node)] = END
            continue
        first = len(mini_fat)
        count = -(-len(node.data) // MINI)
        mini_fat += [first + k + 1 for k in range(count - 1)] + [END]
        mini += node.data + bytes(count * MINI - len(node.data))
        starts[id(node)] = first

    def sectors(size: int) -> int:
        return -(-size // SECTOR)

    directory_sectors = sectors(len(entries) * 128)
    mini_fat_sectors = sectors(len(mini_fat) * 4)
    mini_sectors = sectors(len(mini))
    large_sectors = [sectors(len(node.data or b"")) for node in large]
    content = directory_sectors + mini_fat_sectors + mini_sectors + sum(large_sectors)
    fat_sectors = 1
    while fat_sectors * (SECTOR // 4) < content + fat_sectors:
        fat_sectors += 1

    fat: list[int] = [FAT_SECTOR] * fat_sectors
    blobs: list[bytes] = []

    def chain(data: bytes, count: int) -> int:
        first = len(fat)
        fat.extend(first + k + 1 for k in range(count - 1))
        fat.append(END)
        blobs.append(data + bytes(count * SECTOR - len(data)))
        return first

    directory_start = len(fat)
    fat.extend(directory_start + k + 1 for k in range(directory_sectors - 1))
    fat.append(END)
    mini_fat_start = (
        chain(b"".join(struct.pack("<I", v) for v in mini_fat), mini_fat_sectors)
        if mini_fat
        else END
    )
    mini_start = chain(bytes(mini), mini_sectors) if mini else END
    for node, count in zip(large, large_sectors, strict=True):
        starts[id(node)] = chain(node.data or b"", count)
    fat += [FREE] * (fat_sectors * (SECTOR // 4) - len(fat))

    directory = bytearray()
    for node in entries:
        is_root = node is root
        kind = 5 if is_root else (1 if node.data is None else 2)
        name = node.name.encode("utf-16-le")
        ordered = sorted(node.children, key=_sort_key)
        child = ids[id(ordered[0])] if ordered else NOSTREAM
        # Siblings as a right-leaning chain in sorted order: a valid (all black) tree.
        right = NOSTREAM
        parent = next((p for p in entries if node in p.children), None)
        if parent is not None:
            siblings = sorted(parent.children, key=_sort_key)
            position = siblings.index(node)
            if position + 1 < len(siblings):
                right = ids[id(siblings[position + 1])]
        if is_root:
            start, size = mini_start, len(mini)
        elif node.data is None:
            start, size = 0, 0
        else:
            start, size = starts[id(node)], len(node.data)
        directory += struct.pack(
            "<64sHBBIII16sIQQIQ",
            name + bytes(64 - len(name)),
            len(name) + 2,
            kind,
            1,  # black
            NOSTREAM,
            right,
            child,
            bytes(16),
            0,
            0,
            0,
            start,
            size,
        )
    directory += bytes(directory_sectors * SECTOR - len(directory))
    # Unused directory slots are empty entries with no siblings or children.
    for offset in range(len(entries) * 128, len(directory), 128):
        directory[offset + 68 : offset + 80] = struct.pack("<III", NOSTREAM, NOSTREAM, NOSTREAM)

    difat = list(range(fat_sectors)) + [FREE] * (109 - fat_sectors)
    header = struct.pack(
        "<8s16sHHHHH6sIIIIIIIII",
        bytes.fromhex("d0cf11e0a1b11ae1"),
        bytes(16),
        0x003E,
        3,
        0xFFFE,
        9,
        6,
        bytes(6),
        0,
        fat_sectors,
        directory_start,
        0,
        CUTOFF,
        mini_fat_start,
        mini_fat_sectors,
        END,
        0,
    ) + b"".join(struct.pack("<I", v) for v in difat)
    fat_bytes = b"".join(struct.pack("<I", v) for v in fat)
    body = fat_bytes + bytes(directory)
    return header + body + b"".join(blobs)
