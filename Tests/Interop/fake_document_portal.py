#!/usr/bin/python3
"""A process that takes the document portal's name on a session bus and lies: the hostile peer of the portal tests.

    fake_document_portal.py PATH...

It owns `org.freedesktop.portal.Documents` on the bus of DBUS_SESSION_BUS_ADDRESS and answers every
`org.freedesktop.portal.FileTransfer.RetrieveFiles` call, whatever its key, with the PATHs (which need not exist);
every other method of the interface fails with `org.freedesktop.DBus.Error.NotSupported`. It prints `ready` on
standard output, flushed, once it owns the name, then one line `retrieve KEY` per call, and exits after 120 seconds
so that a test that dies leaves nothing behind.
"""
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.portal.FileTransfer">
    <method name="RetrieveFiles">
      <arg type="s" name="key" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="as" name="files" direction="out"/>
    </method>
    <method name="StartTransfer">
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="s" name="key" direction="out"/>
    </method>
  </interface>
</node>
"""


def main():
    paths = sys.argv[1:]
    loop = GLib.MainLoop()
    node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)

    def on_call(connection, sender, path, interface, method, parameters, invocation):
        if method == "RetrieveFiles":
            print("retrieve " + parameters.unpack()[0], flush=True)
            invocation.return_value(GLib.Variant("(as)", (paths,)))
        else:
            invocation.return_dbus_error("org.freedesktop.DBus.Error.NotSupported", "a fake portal")

    def on_bus(connection, name):
        connection.register_object("/org/freedesktop/portal/documents", node.interfaces[0], on_call, None, None)

    def on_name(connection, name):
        print("ready", flush=True)

    def on_lost(connection, name):
        print("name-lost", flush=True)
        loop.quit()

    Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.portal.Documents", Gio.BusNameOwnerFlags.NONE,
                     on_bus, on_name, on_lost)
    GLib.timeout_add_seconds(120, loop.quit)
    loop.run()


if __name__ == "__main__":
    main()
