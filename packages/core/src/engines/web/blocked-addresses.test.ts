import { describe, expect, it } from "vitest";
import { blockedAddressReason } from "./blocked-addresses.js";

describe("blockedAddressReason", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["127.255.0.9", "a loopback address"],
    ["::1", "a loopback address"],
    ["[::1]", "a loopback address"],
    ["0.0.0.0", "an unspecified address"],
    ["::", "an unspecified address"],
    ["10.0.0.1", "a private address"],
    ["172.16.5.4", "a private address"],
    ["172.31.255.255", "a private address"],
    ["192.168.0.10", "a private address"],
    ["fc00::1", "a private address"],
    ["fd12:3456::1", "a private address"],
    ["169.254.1.1", "a link-local address"],
    ["fe80::1%eth0", "a link-local address"],
    ["169.254.169.254", "a cloud metadata address"],
    ["fd00:ec2::254", "a cloud metadata address"],
    ["100.64.0.1", "a carrier-grade NAT address"],
    ["100.127.255.254", "a carrier-grade NAT address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["::ffff:7f00:1", "a loopback address"],
    ["::ffff:169.254.169.254", "a cloud metadata address"],
    ["::127.0.0.1", "a loopback address"],
    ["64:ff9b::10.0.0.1", "a private address"],
    ["64:ff9b::a9fe:a9fe", "a cloud metadata address"],
    ["224.0.0.1", "a multicast or broadcast address"],
  ])("%s is %s", (address, reason) => {
    expect(blockedAddressReason(address)).toBe(reason);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "172.32.0.1",
    "100.128.0.1",
    "192.169.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "example.com",
  ])("%s is not blocked", (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });
});
