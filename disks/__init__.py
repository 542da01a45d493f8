"""Known diskette images and where to find them (see `disks.catalog`)."""

from .catalog import CATALOG, CatalogDisk, DiskError, find_disk, identify, search_folders

__all__ = ["CATALOG", "CatalogDisk", "DiskError", "find_disk", "identify", "search_folders"]
