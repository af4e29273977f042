import MarqueeCore

/// Resolves a card and its template into `CardContent` for one style: the built-in `default`
/// template (title, body, accent bar, placed by `CardMetrics`), or a deck template's elements
/// placed by their edges.
struct CardResolver {
    /// The widest line a marquee scrolls, in pixels.
    static let longestMarquee = 16_384.0

    let style: Style
    let fonts: FontSet
    /// Turns an image field's value into the path to ask the provider for (relative to the
    /// deck's folder, within `--restrict-paths`), or nil when it may not be shown.
    let imagePath: (String) -> String?

    func content(_ card: Card, template: CardTemplate?, width: Int, height: Int) -> CardContent {
        let content = CardContent(surface: surface(card, width: width, height: height))
        if let template {
            resolve(template, card, width: width, height: height, into: content)
        } else {
            resolveDefault(card, width: width, height: height, into: content)
        }
        return content
    }

    private func surface(_ card: Card, width: Int, height: Int) -> CardSurface {
        let fill = card.color ?? style.cardColor
        let width = max(1, width)
        let height = max(1, height)
        return CardSurface(
            width: width, height: height, fill: fill, opacity: style.cardAlpha * Double(fill.alpha) / 255,
            radius: min(style.cornerRadius, Double(min(width, height)) / 2))
    }

    // MARK: The built-in template

    /// Today's card: the accent bar along the left edge, the bold title on one line and the body
    /// on as many lines as the card's height allows (the title ends with "…" when none fit).
    private func resolveDefault(_ card: Card, width: Int, height: Int, into content: CardContent) {
        if let accent = card.accent {
            let accentWidth = min(content.surface.width, Int(style.accentWidth.rounded()))
            if accentWidth > 0 {
                content.surface.boxes.append(
                    SurfaceBox(x0: 0, y0: 0, x1: accentWidth, y1: content.surface.height, radius: 0, color: accent))
            }
        }
        let metrics = CardMetrics(style: style, width: Double(width), height: Double(height))
        let bodyHidden = !card.body.isEmpty && metrics.bodyLineCount == 0
        let direction = card.direction ?? style.direction
        func x(_ line: TextLine) -> Double { metrics.padding + line.offset(in: metrics.textWidth, align: style.align) }
        if !card.title.isEmpty {
            for line in TextLayout.lines(
                card.title, face: fonts.title, maximumWidth: metrics.textWidth, maximumLines: 1,
                moreFollows: bodyHidden, direction: direction)
            {
                content.texts.append(
                    PlacedText(
                        line: line, face: fonts.title, color: style.textColor, x: x(line),
                        baseline: metrics.titleBaseline))
            }
        }
        if !card.body.isEmpty {
            let lines = TextLayout.lines(
                card.body, face: fonts.body, maximumWidth: metrics.textWidth, maximumLines: metrics.bodyLineCount,
                direction: direction)
            for (number, line) in lines.enumerated() {
                content.texts.append(
                    PlacedText(
                        line: line, face: fonts.body, color: style.textColor, x: x(line),
                        baseline: metrics.firstBodyBaseline + Double(number) * metrics.bodyLineHeight))
            }
        }
    }

    // MARK: Deck templates

    private func resolve(
        _ template: CardTemplate, _ card: Card, width: Int, height: Int, into content: CardContent
    ) {
        let cardWidth = Double(content.surface.width)
        let cardHeight = Double(content.surface.height)
        for element in template.elements {
            let frame = element.frame(width: cardWidth, height: cardHeight)
            let box = (
                x: Int(frame.x.rounded()), y: Int(frame.y.rounded()), width: Int(frame.width.rounded()),
                height: Int(frame.height.rounded())
            )
            // Not cut to the card: text (and a picture) may draw past it. Boxes are cut to the
            // surface below.
            let rows = element.reach(width: cardWidth, height: cardHeight)
            switch element.kind {
            case .box: break
            case .text, .clock, .image:
                content.reachAbove = max(content.reachAbove, -rows.lowerBound)
                content.reachBelow = max(content.reachBelow, rows.upperBound - content.surface.height)
            }
            switch element.kind {
            case .box(let fill, let radius):
                let color: Color?
                switch fill {
                case .constant(let constant): color = constant
                case .field(let name): color = card.fields[name].flatMap { Color(hex: $0) }
                }
                guard let color else { continue }
                let x0 = min(max(box.x, 0), content.surface.width)
                let y0 = min(max(box.y, 0), content.surface.height)
                let x1 = min(max(box.x + box.width, x0), content.surface.width)
                let y1 = min(max(box.y + box.height, y0), content.surface.height)
                guard x1 > x0, y1 > y0 else { continue }
                content.surface.boxes.append(
                    SurfaceBox(
                        x0: x0, y0: y0, x1: x1, y1: y1, radius: min(radius, Double(min(x1 - x0, y1 - y0)) / 2),
                        color: color))
            case .text(let field):
                guard let value = card.fields[field], !value.isEmpty else { continue }
                placeText(value, element, card: card, frame: frame, box: box, rows: rows, into: content)
            case .clock(let format):
                let style = element.text
                content.clocks.append(
                    ClockText(
                        format: format, face: face(style), color: color(style, card), box: box,
                        baseline: frame.y + style.firstBaseline, align: style.align,
                        direction: style.direction ?? card.direction ?? self.style.direction, rows: rows))
            case .image(let field, let fit, let radius, let placeholder):
                guard box.width > 0, box.height > 0 else { continue }
                let request = card.fields[field].flatMap { $0.isEmpty ? nil : imagePath($0) }.map {
                    ImageRequest(
                        path: $0, width: box.width, height: box.height,
                        fit: ImageFit(rawValue: fit.rawValue) ?? .contain,
                        radius: Int(radius.rounded()))
                }
                content.images.append(
                    PlacedImage(request: request, box: box, radius: radius, placeholder: placeholder, rows: rows))
            }
        }
    }

    private func face(_ style: TemplateTextStyle) -> FontFace {
        fonts.elementFace(family: style.font, weight: style.weight, size: style.size)
    }

    private func color(_ style: TemplateTextStyle, _ card: Card) -> Color {
        style.color?.resolve(card.fields) ?? self.style.textColor
    }

    private func placeText(
        _ value: String, _ element: TemplateElement, card: Card, frame: Rect,
        box: (x: Int, y: Int, width: Int, height: Int), rows: Range<Int>, into content: CardContent
    ) {
        let style = element.text
        let face = face(style)
        let color = color(style, card)
        let direction = style.direction ?? card.direction ?? self.style.direction
        let firstBaseline = frame.y + style.firstBaseline
        // Clipped and scrolling text is not wrapped: each line is a paragraph of the value.
        let wraps: Bool
        switch style.overflow {
        case .ellipsis: wraps = true
        case .clip, .marquee: wraps = false
        }
        let lines = TextLayout.lines(
            value, face: face, maximumWidth: wraps ? frame.width : 1e7, maximumLines: style.lines,
            direction: direction, marksTruncation: wraps)
        if case .marquee(let speed, let pause) = style.overflow, let line = lines.first,
            line.width > Double(box.width), box.width > 0
        {
            // A strip longer than this would cost memory without bound (a field sent by `update`
            // can be 64 KiB of text): such a line is ended with "…" instead.
            guard line.width <= Self.longestMarquee else {
                for line in TextLayout.lines(
                    value, face: face, maximumWidth: frame.width, maximumLines: 1, direction: direction)
                {
                    content.texts.append(
                        PlacedText(
                            line: line, face: face, color: color,
                            x: frame.x + line.offset(in: frame.width, align: style.align), baseline: firstBaseline))
                }
                return
            }
            content.marquees.append(
                MarqueeText(
                    line: line, face: face, color: color, box: box, baseline: firstBaseline, speed: speed,
                    pause: pause, rows: rows))
            return
        }
        let clip: Range<Int>? = wraps ? nil : box.x..<max(box.x, box.x + box.width)
        for (number, line) in lines.enumerated() {
            content.texts.append(
                PlacedText(
                    line: line, face: face, color: color, x: frame.x + line.offset(in: frame.width, align: style.align),
                    baseline: firstBaseline + Double(number) * style.lineHeight, clip: clip))
        }
    }
}
