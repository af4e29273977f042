import CDRM
import MarqueeCore
import XCTest

@testable import MarqueeDisplay

/// Connector, mode and CRTC choice from plain values (what the kernel would list), no device.
final class DRMOutputChoiceTests: XCTestCase {
    static func mode(_ width: Int, _ height: Int, hz: Double, preferred: Bool = false) -> DisplayMode {
        var info = drmModeModeInfo()
        info.hdisplay = UInt16(width)
        info.vdisplay = UInt16(height)
        info.htotal = UInt16(width + 280)
        info.vtotal = UInt16(height + 45)
        info.clock = UInt32((Double(info.htotal) * Double(info.vtotal) * hz / 1000).rounded())
        info.vrefresh = UInt32(hz.rounded())
        if preferred { info.type = UInt32(DRM_MODE_TYPE_PREFERRED) }
        return DisplayMode(info)
    }

    let tv = ConnectorInfo(
        id: 40, name: "HDMI-A-1", isConnected: true,
        modes: [mode(1280, 720, hz: 60), mode(1920, 1080, hz: 60, preferred: true), mode(1920, 1080, hz: 50)],
        encoderIDs: [30])
    let empty = ConnectorInfo(id: 41, name: "HDMI-A-2", isConnected: false, modes: [], encoderIDs: [31])
    let writeback = ConnectorInfo(
        id: 42, name: "Writeback-1", isConnected: true, isWriteback: true, modes: [mode(640, 480, hz: 60)],
        encoderIDs: [32])

    var resources: DRMResources {
        DRMResources(
            crtcIDs: [100, 101],
            encoders: [
                EncoderInfo(id: 30, crtcID: 0, possibleCRTCs: 0b01),
                EncoderInfo(id: 31, crtcID: 0, possibleCRTCs: 0b10),
                EncoderInfo(id: 32, crtcID: 0, possibleCRTCs: 0b11),
            ],
            connectors: [empty, writeback, tv])
    }

    func testTheFirstConnectedDisplayAndItsPreferredModeAreTaken() throws {
        let output = try DRMOutput.choose(on: "/dev/dri/card0", resources: resources, connector: nil, mode: nil)
        XCTAssertEqual(output.connector.name, "HDMI-A-1", "not the writeback connector, not the empty one")
        XCTAssertEqual(output.mode.description, "1920x1080@60 (preferred)")
        XCTAssertEqual(output.crtcID, 100)
        XCTAssertEqual(output.crtcIndex, 0)
    }

    func testModeRequestsPickSizeAndRate() throws {
        XCTAssertEqual(
            try DRMOutput.chooseMode(ModeRequest(parsing: "1920x1080@50"), of: tv).description, "1920x1080@50")
        XCTAssertEqual(try DRMOutput.chooseMode(ModeRequest(parsing: "1280x720"), of: tv).description, "1280x720@60")
        XCTAssertThrowsError(try DRMOutput.chooseMode(ModeRequest(parsing: "800x600"), of: tv)) { error in
            let error = error as! DisplayError
            XCTAssertEqual(error.code, .unsupportedRequest)
            XCTAssertEqual(
                error.message,
                "HDMI-A-1 does not offer the mode 800x600; it offers: 1280x720@60, 1920x1080@60 (preferred), 1920x1080@50"
            )
        }
    }

    func testANamedConnectorWithoutADisplayIsNoDisplayAndAnUnknownNameListsTheConnectors() {
        XCTAssertThrowsError(
            try DRMOutput.choose(on: "/dev/dri/card0", resources: resources, connector: "HDMI-A-2", mode: nil)
        ) {
            XCTAssertEqual(($0 as! DisplayError).code, .noDisplay)
        }
        XCTAssertThrowsError(
            try DRMOutput.choose(on: "/dev/dri/card0", resources: resources, connector: "DSI-1", mode: nil)
        ) {
            XCTAssertEqual(
                ($0 as! DisplayError).message,
                "/dev/dri/card0 has no connector DSI-1; its connectors: HDMI-A-2 (disconnected), HDMI-A-1 (connected)")
        }
        var nothing = resources
        nothing.connectors = [empty]
        XCTAssertThrowsError(try DRMOutput.choose(on: "/dev/dri/card0", resources: nothing, connector: nil, mode: nil))
        {
            XCTAssertEqual(($0 as! DisplayError).code, .noDisplay)
        }
    }

    func testTheCRTCAlreadyDrivingTheConnectorIsKept() throws {
        var driven = resources
        driven.encoders[0].crtcID = 0  // encoder 30 idle…
        driven.connectors[2].currentEncoderID = 32  // …the TV driven through encoder 32 on CRTC 101
        driven.encoders[2].crtcID = 101
        let output = try DRMOutput.choose(on: "/dev/dri/card0", resources: driven, connector: "hdmi-a-1", mode: nil)
        XCTAssertEqual(output.crtcID, 101)
        XCTAssertEqual(output.crtcIndex, 1)
    }

    func testAConnectorNoEncoderCanFeedHasNoCRTC() {
        var stranded = resources
        stranded.encoders[0].possibleCRTCs = 0
        XCTAssertThrowsError(try DRMOutput.choose(on: "/dev/dri/card0", resources: stranded, connector: nil, mode: nil))
        {
            XCTAssertEqual(($0 as! DisplayError).message, "no CRTC of /dev/dri/card0 can drive HDMI-A-1")
        }
    }

    // MARK: Several outputs

    /// Two TVs on a card whose encoders can feed either of two CRTCs, or only one.
    func twoTVs(firstEncoderCRTCs: UInt32, secondEncoderCRTCs: UInt32, crtcs: [UInt32] = [100, 101]) -> DRMResources {
        let second = ConnectorInfo(
            id: 41, name: "HDMI-A-2", isConnected: true, modes: [Self.mode(1280, 1024, hz: 75, preferred: true)],
            encoderIDs: [31])
        return DRMResources(
            crtcIDs: crtcs,
            encoders: [
                EncoderInfo(id: 30, crtcID: 0, possibleCRTCs: firstEncoderCRTCs),
                EncoderInfo(id: 31, crtcID: 0, possibleCRTCs: secondEncoderCRTCs),
            ],
            connectors: [tv, second])
    }

    func testTwoConnectorsGetTwoCRTCsAndEachItsOwnMode() throws {
        // Both encoders can feed both CRTCs (as on most PC cards): one at a time would give both
        // the first CRTC.
        let outputs = try DRMOutput.chooseAll(
            on: "/dev/dri/card0", resources: twoTVs(firstEncoderCRTCs: 0b11, secondEncoderCRTCs: 0b11),
            requests: [
                DRMOutputRequest(connector: "HDMI-A-1", mode: ModeRequest(parsing: "1280x720")),
                DRMOutputRequest(connector: "HDMI-A-2"),
            ])
        XCTAssertEqual(outputs.map(\.connector.name), ["HDMI-A-1", "HDMI-A-2"])
        XCTAssertEqual(outputs.map(\.crtcID), [100, 101])
        XCTAssertEqual(outputs.map(\.crtcIndex), [0, 1])
        XCTAssertEqual(outputs.map(\.mode.description), ["1280x720@60", "1280x1024@75 (preferred)"])
    }

    func testACRTCOnlyOneConnectorCanUseGoesToItEvenWhenItComesSecond() throws {
        // HDMI-A-1 could use either CRTC, HDMI-A-2 only the first: taking the first for HDMI-A-1
        // (its best candidate) would leave HDMI-A-2 without one.
        let outputs = try DRMOutput.chooseAll(
            on: "/dev/dri/card0", resources: twoTVs(firstEncoderCRTCs: 0b11, secondEncoderCRTCs: 0b01),
            requests: [DRMOutputRequest(connector: "HDMI-A-1"), DRMOutputRequest(connector: "HDMI-A-2")])
        XCTAssertEqual(outputs.map(\.crtcID), [101, 100])
        XCTAssertEqual(outputs.map(\.crtcIndex), [1, 0])
    }

    func testTheCRTCsAlreadyDrivingTheConnectorsAreKeptWhenTheyDiffer() throws {
        var resources = twoTVs(firstEncoderCRTCs: 0b11, secondEncoderCRTCs: 0b11)
        // The console drives HDMI-A-1 on CRTC 101 and HDMI-A-2 on CRTC 100.
        resources.connectors[0].currentEncoderID = 30
        resources.encoders[0].crtcID = 101
        resources.connectors[1].currentEncoderID = 31
        resources.encoders[1].crtcID = 100
        let outputs = try DRMOutput.chooseAll(
            on: "/dev/dri/card0", resources: resources,
            requests: [DRMOutputRequest(connector: "HDMI-A-1"), DRMOutputRequest(connector: "HDMI-A-2")])
        XCTAssertEqual(outputs.map(\.crtcID), [101, 100], "no modeset moves a connector to another CRTC")
    }

    func testTwoConnectorsOnOneCRTCAreRefusedWithTheReason() {
        XCTAssertThrowsError(
            try DRMOutput.chooseAll(
                on: "/dev/dri/card0", resources: twoTVs(firstEncoderCRTCs: 0b01, secondEncoderCRTCs: 0b01),
                requests: [DRMOutputRequest(connector: "HDMI-A-1"), DRMOutputRequest(connector: "HDMI-A-2")])
        ) {
            XCTAssertEqual(
                ($0 as! DisplayError).message,
                "/dev/dri/card0 has no CRTCs to drive HDMI-A-1 and HDMI-A-2 at once (it has 2 CRTCs; their encoders cannot share them)"
            )
        }
        XCTAssertThrowsError(
            try DRMOutput.chooseAll(
                on: "/dev/dri/card0", resources: twoTVs(firstEncoderCRTCs: 0b11, secondEncoderCRTCs: 0b11),
                requests: [DRMOutputRequest(connector: "HDMI-A-1"), DRMOutputRequest(connector: "hdmi-a-1")])
        ) {
            XCTAssertEqual(($0 as! DisplayError).message, "--connector HDMI-A-1 is given twice")
        }
    }

    func testAReconnectedOutputTakesNoCRTCAnotherOutputHolds() throws {
        let resources = twoTVs(firstEncoderCRTCs: 0b11, secondEncoderCRTCs: 0b11)
        // HDMI-A-2 comes back while HDMI-A-1 holds CRTC 100.
        let back = try DRMOutput.choose(
            on: "/dev/dri/card0", resources: resources, connector: "HDMI-A-2", mode: nil, excluding: [100])
        XCTAssertEqual(back.crtcID, 101)
        let plan = HotplugPlan.wantedOutput(
            devicePath: "/dev/dri/card0", resources: resources, connector: "HDMI-A-2", mode: nil,
            lastConnector: "HDMI-A-2", excluding: [100, 101])
        guard case .failure(let error) = plan else { return XCTFail("both CRTCs are held: \(plan)") }
        XCTAssertEqual(error.message, "no CRTC of /dev/dri/card0 can drive HDMI-A-2")
    }

    func testMissingAtomicPropertiesAreAllNamedAtStart() {
        let plane = DRMObjectProperties(
            object: "plane 33",
            entries: [
                "FB_ID": .init(id: 1, value: 0), "CRTC_ID": .init(id: 2, value: 0), "SRC_X": .init(id: 3, value: 0),
            ])
        XCTAssertThrowsError(try PlaneProperties(plane)) {
            XCTAssertEqual(
                ($0 as! DisplayError).message,
                "the driver's plane 33 lacks the atomic properties SRC_Y, SRC_W, SRC_H, CRTC_X, CRTC_Y, CRTC_W, CRTC_H; try --no-atomic"
            )
        }
        let crtc = DRMObjectProperties(
            object: "CRTC 36", entries: ["ACTIVE": .init(id: 20, value: 1), "MODE_ID": .init(id: 21, value: 0)])
        XCTAssertEqual(try CRTCProperties(crtc).active, 20)
        XCTAssertEqual(try CRTCProperties(crtc).modeID, 21)
    }

    func testPanelOrientationGivesTheRotationTheKernelConsoleUses() {
        func rotation(_ name: String?) -> Rotation? {
            var entries: [String: DRMObjectProperties.Entry] = ["DPMS": .init(id: 2, value: 0)]
            if let name { entries["panel orientation"] = .init(id: 9, value: 1, enumName: name) }
            return ConnectorProperties(DRMObjectProperties(object: "connector 40", entries: entries)).panelRotation
        }
        XCTAssertNil(rotation(nil), "no property: no turn")
        XCTAssertNil(rotation("Normal"))
        XCTAssertEqual(rotation("Upside Down"), .half)
        XCTAssertEqual(rotation("Right Side Up"), .quarter)
        XCTAssertEqual(rotation("Left Side Up"), .threeQuarters)
    }

    /// `--rotate 180` is given to the plane only where its `rotation` bitmask lists `rotate-180`;
    /// quarter turns are always made while copying; every modeset sets `rotate-0` otherwise.
    func testThePlaneTakesTheHalfTurnOnlyWhereItsRotationPropertyOffersIt() {
        func rotation(_ offered: [String: UInt64]?, initial: UInt64 = 1) -> PlaneRotation? {
            var entries: [String: DRMObjectProperties.Entry] = [:]
            for name in [
                "FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H", "CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H",
            ] {
                entries[name] = .init(id: UInt32(entries.count + 1), value: 0)
            }
            if let offered { entries["rotation"] = .init(id: 40, value: initial, values: offered) }
            return try! PlaneProperties(DRMObjectProperties(object: "plane 31", entries: entries)).rotation
        }
        // Bit numbers as the kernel lists them (drm_blend.c): rotate-0 is bit 0, rotate-180 bit 2.
        let full: [String: UInt64] = [
            "rotate-0": 0, "rotate-90": 1, "rotate-180": 2, "rotate-270": 3, "reflect-x": 4, "reflect-y": 5,
        ]
        XCTAssertNil(rotation(nil), "no property: nothing to set")
        let vc4Like = rotation(["rotate-0": 0, "rotate-180": 2, "reflect-x": 4, "reflect-y": 5], initial: 4)
        XCTAssertEqual(vc4Like?.value(for: .half), 4)
        XCTAssertEqual(vc4Like?.value(for: .none), 1)
        XCTAssertEqual(vc4Like?.initialValue, 4, "the value found is kept to be put back at exit")
        XCTAssertEqual(vc4Like?.id, 40)
        XCTAssertNil(vc4Like?.value(for: .quarter))
        XCTAssertNil(rotation(full)?.value(for: .quarter), "quarter turns stay in the copy (dumb buffers are linear)")
        XCTAssertNil(rotation(full)?.value(for: .threeQuarters))
        XCTAssertNil(rotation(["rotate-0": 0, "reflect-x": 4])?.value(for: .half), "one mirror is not a half turn")
        XCTAssertEqual(
            rotation(["rotate-0": 0, "reflect-x": 4, "reflect-y": 5])?.value(for: .half), 0b11_0001,
            "both mirrors are")
        XCTAssertEqual(rotation(["rotate-0": 0])?.value(for: .none), 1)
    }
}
