import MarqueeCore

/// `Color` is a common name; this alias keeps the pixman extension unambiguous.
typealias MarqueeCoreColor = MarqueeCore.Color
