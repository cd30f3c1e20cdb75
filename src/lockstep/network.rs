//! Where [`LockstepPlugin`](super::LockstepPlugin) meets a transport: a queue of what came in
//! and a queue of what goes out, each message whole bytes on a reliable ordered link. A
//! transport (renet with the `renet` feature, [`LocalLink`] in one process, or a game's own)
//! fills the first and empties the second.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use bevy::prelude::*;

/// One link to another peer, named by the transport. A guest has one link: the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkId(pub u64);

/// What a transport reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEvent {
    /// A link is open: a guest reached the host, or the host took a guest.
    Connected(LinkId),
    /// A link closed: the peer left, timed out or was refused.
    Disconnected(LinkId),
    /// A whole message from the link, in the order it was sent.
    Received(LinkId, Vec<u8>),
}

/// The two queues between the lockstep and its transport.
#[derive(Resource, Debug, Default)]
pub struct LockstepNetwork {
    incoming: VecDeque<LinkEvent>,
    outgoing: Vec<(LinkId, Vec<u8>)>,
    closing: Vec<LinkId>,
    bytes_sent: u64,
    messages_sent: u64,
}

impl LockstepNetwork {
    /// The transport reports an event.
    pub fn push_event(&mut self, event: LinkEvent) {
        self.incoming.push_back(event);
    }

    /// The transport takes every message to send, each with its link.
    pub fn take_outgoing(&mut self) -> Vec<(LinkId, Vec<u8>)> {
        std::mem::take(&mut self.outgoing)
    }

    /// The transport takes the links to close (after sending what was queued on them).
    pub fn take_closing(&mut self) -> Vec<LinkId> {
        std::mem::take(&mut self.closing)
    }

    /// Bytes of lockstep messages sent so far, and how many messages.
    pub fn sent(&self) -> (u64, u64) {
        (self.bytes_sent, self.messages_sent)
    }

    pub(super) fn send(&mut self, link: LinkId, bytes: Vec<u8>) {
        self.bytes_sent += bytes.len() as u64;
        self.messages_sent += 1;
        self.outgoing.push((link, bytes));
    }

    pub(super) fn close(&mut self, link: LinkId) {
        self.closing.push(link);
    }

    pub(super) fn take_events(&mut self) -> VecDeque<LinkEvent> {
        std::mem::take(&mut self.incoming)
    }
}

/// One end of an in-process link: two apps in one process (a window and a second player, or
/// tests) play over a pair of these, optionally with a delay on every message to stand for a
/// network's.
#[derive(Debug)]
pub struct LocalLink {
    link: LinkId,
    to: Sender<(Instant, Vec<u8>)>,
    from: Mutex<Receiver<(Instant, Vec<u8>)>>,
    /// Messages arrived but not yet due.
    in_flight: VecDeque<(Instant, Vec<u8>)>,
    latency: Duration,
    reported_open: bool,
    closed: bool,
}

impl LocalLink {
    /// Two ends joined to each other: the host's end names the guest `guest`, the guest's end
    /// names the host `LinkId(0)`. Each message arrives `latency` after it was sent.
    pub fn pair(guest: LinkId, latency: Duration) -> (Self, Self) {
        let (to_guest, from_host) = mpsc::channel();
        let (to_host, from_guest) = mpsc::channel();
        let end = |link, to, from| Self {
            link,
            to,
            from: Mutex::new(from),
            in_flight: VecDeque::new(),
            latency,
            reported_open: false,
            closed: false,
        };
        (
            end(guest, to_guest, from_guest),
            end(LinkId(0), to_host, from_host),
        )
    }
}

impl LocalLink {
    /// Sends `bytes` at once, past any lockstep: for tools and tests that speak the protocol
    /// themselves.
    pub fn send_raw(&self, bytes: Vec<u8>) {
        // A send fails only when the other end is gone.
        let _ = self.to.send((Instant::now(), bytes));
    }

    /// Every message that has arrived, at once (the latency is not waited for): for tools and
    /// tests that speak the protocol themselves.
    pub fn receive_raw(&mut self) -> Vec<Vec<u8>> {
        let mut messages: Vec<Vec<u8>> = self.in_flight.drain(..).map(|(_, bytes)| bytes).collect();
        if let Ok(from) = self.from.get_mut() {
            messages.extend(from.try_iter().map(|(_, bytes)| bytes));
        }
        messages
    }
}

/// The in-process transport: the [`LocalLink`]s of this app, pumped each update. Add ends at
/// any time (a player joining later).
#[derive(Resource, Debug, Default)]
pub struct LocalLinks(pub Vec<LocalLink>);

/// Moves what arrived on the local links into [`LockstepNetwork`].
pub(super) fn receive_local(mut links: ResMut<LocalLinks>, mut network: ResMut<LockstepNetwork>) {
    let now = Instant::now();
    for end in &mut links.0 {
        if end.closed {
            continue;
        }
        if !end.reported_open {
            end.reported_open = true;
            network.push_event(LinkEvent::Connected(end.link));
        }
        let disconnected = loop {
            let received = end.from.get_mut().map(|from| from.try_recv());
            match received {
                Ok(Ok(message)) => end.in_flight.push_back(message),
                Ok(Err(TryRecvError::Empty)) => break false,
                Ok(Err(TryRecvError::Disconnected)) | Err(_) => break true,
            }
        };
        while let Some((sent, _)) = end.in_flight.front() {
            if now.duration_since(*sent) < end.latency {
                break;
            }
            if let Some((_, bytes)) = end.in_flight.pop_front() {
                network.push_event(LinkEvent::Received(end.link, bytes));
            }
        }
        if disconnected && end.in_flight.is_empty() {
            end.closed = true;
            network.push_event(LinkEvent::Disconnected(end.link));
        }
    }
}

/// Sends what the lockstep queued on the local links.
pub(super) fn send_local(mut links: ResMut<LocalLinks>, mut network: ResMut<LockstepNetwork>) {
    let now = Instant::now();
    for (link, bytes) in network.take_outgoing() {
        if let Some(end) = links
            .0
            .iter_mut()
            .find(|end| end.link == link && !end.closed)
        {
            // A send fails only when the other end is gone; `receive_local` reports it.
            let _ = end.to.send((now, bytes));
        }
    }
    let closing = network.take_closing();
    links.0.retain(|end| !closing.contains(&end.link));
}
