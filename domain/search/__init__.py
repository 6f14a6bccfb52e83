"""Search for the `strong` bots: sampling the worlds a seat cannot tell apart (`worlds`) and
choosing among its actions by playing each out in those worlds (`flat`)."""
