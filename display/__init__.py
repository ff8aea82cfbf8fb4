"""The pygame kiosk: scenes, card faces, layout, translations, touch and keyboard input."""
