import MarqueeCore

extension BenchRunner {
    /// Title and two body lines per script, saying what the Latin card says (the body lines fit
    /// the bench card's 1792 px text width at 24 px).
    static let worldTexts: [(title: String, body: String)] = [
        ("بطاقة", "لوحة المغادرة، الرصيف 4: القطار التالي بعد 3 دقائق\nيتوقف في ألدرلي وبرايتووتر وكارو ودنمور"),
        ("כרטיס", "לוח יציאות, רציף 4: הרכבת הבאה בעוד 3 דקות\nעוצרת באלדרלי, ברייטווטר, קארו ודנמור"),
        ("कार्ड", "प्रस्थान बोर्ड, प्लेटफ़ॉर्म 4: अगली सेवा 3 मिनट में\nएल्डरली, ब्राइटवॉटर, कैरो और डनमोर पर रुकती है"),
        ("卡片", "发车信息，4号站台：下一班车3分钟后到达\n经停奥尔德利、布赖特沃特、卡罗和邓莫尔"),
        (
            "Card",
            "Departure board, platform 4: next service in 3 minutes\nCalling at Alderley, Brightwater, Carrow and Dunmore"
        ),
    ]

    /// The SPEC §10 deck with card n's title and body in script n mod 5 (Arabic, Hebrew, Hindi,
    /// Chinese, Latin), each title numbered like "Card N".
    public static func worldDeck(cards: Int) -> Deck {
        var deck = deck(cards: 0)
        var section = Section()
        section.cards.reserveCapacity(cards)
        for number in 0..<cards {
            let text = worldTexts[number % worldTexts.count]
            section.cards.append(Card(id: "c\(number)", title: "\(text.title) \(number)", body: text.body))
        }
        deck.sections = [section]
        return deck
    }
}
