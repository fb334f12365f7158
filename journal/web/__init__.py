"""The table's screen (`spire serve`): a live page of the campaign and its history to
browse, served read-only over HTTP (Starlette, uvicorn), drawn from the glance status
keeps and the service's walks, never from rules of its own."""
