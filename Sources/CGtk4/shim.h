// GTK 4's C API for TransferGTK (Debian libgtk-4-dev; pkg-config gtk4).
#include <gtk/gtk.h>
